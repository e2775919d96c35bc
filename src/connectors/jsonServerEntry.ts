import { notWrittenByInstall, serverArgv, writtenByInstall } from "./cairnEntry.js";
import { configConflict } from "./hookGroups.js";
import { isJsonObject, type JsonObject, jsonEqual } from "./jsonDocument.js";

/** Where the `cairn` entry lives: the settings object, its map of servers (`key`), the file and the agent. */
export interface ServerEntryTarget {
  settings: JsonObject;
  /** `mcpServers` in Claude Code and Gemini CLI, `mcp` in OpenCode. */
  key: string;
  file: string;
  agent: string;
}

/**
 * Sets the `cairn` entry in a JSON settings file's map of MCP servers. Returns whether it changed
 * `settings`, so an unchanged file keeps its exact bytes. A `cairn` entry that `cairn install` did not
 * write (the user's own server of that name) is refused: replacing it would lose it at uninstall.
 */
export function setServerEntry(target: ServerEntryTarget, entry: JsonObject): boolean {
  const { settings, key, file } = target;
  const servers = settings[key] ?? {};
  if (!isJsonObject(servers)) throw configConflict(file, `${key} is not an object`);
  if (jsonEqual(servers.cairn, entry)) return false;
  if (servers.cairn !== undefined && !writtenByInstall(serverArgv(servers.cairn), ["mcp"])) {
    throw notWrittenByInstall({ file, what: `an MCP server named 'cairn' (${key}.cairn)`, agent: target.agent });
  }
  settings[key] = { ...servers, cairn: entry };
  return true;
}

/** Removes the `cairn` entry install wrote (never the user's own), and the map itself when that left it empty. */
export function removeServerEntry(settings: JsonObject, key: string): boolean {
  const servers = settings[key];
  if (!isJsonObject(servers) || !("cairn" in servers)) return false;
  if (!writtenByInstall(serverArgv(servers.cairn), ["mcp"])) return false;
  delete servers.cairn;
  if (Object.keys(servers).length === 0) delete settings[key];
  return true;
}

/** The command line of the `cairn` entry install wrote, for `cairn doctor`; none for the user's own. */
export function installedServerArgv(settings: JsonObject, key: string): unknown[][] {
  const servers = settings[key];
  if (!isJsonObject(servers)) return [];
  const argv = serverArgv(servers.cairn);
  return writtenByInstall(argv, ["mcp"]) ? [argv] : [];
}
