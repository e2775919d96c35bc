import { configConflict } from "./hookGroups.js";
import { isJsonObject, type JsonObject, jsonEqual } from "./jsonDocument.js";

/**
 * The `cairn` entry in a JSON settings file's map of MCP servers (`mcpServers` in Claude Code and
 * Gemini CLI, `mcp` in OpenCode). Each returns whether it changed `settings`, so an unchanged file keeps
 * its exact bytes.
 */
export function setServerEntry(settings: JsonObject, key: string, entry: JsonObject, file: string): boolean {
  const servers = settings[key] ?? {};
  if (!isJsonObject(servers)) throw configConflict(file, `${key} is not an object`);
  if (jsonEqual(servers.cairn, entry)) return false;
  settings[key] = { ...servers, cairn: entry };
  return true;
}

/** Removes the `cairn` entry, and the map itself when that left it empty. */
export function removeServerEntry(settings: JsonObject, key: string): boolean {
  const servers = settings[key];
  if (!isJsonObject(servers) || !("cairn" in servers)) return false;
  delete servers.cairn;
  if (Object.keys(servers).length === 0) delete settings[key];
  return true;
}
