import { CairnError } from "../util/errors.js";
import { type Markers, removeBlock, upsertBlock } from "./markedBlock.js";

export const TOML_MARKERS: Markers = {
  begin: "# >>> cairn: added by 'cairn install codex'; 'cairn uninstall codex' removes it >>>",
  end: "# <<< cairn <<<",
};

const CAIRN_TABLE = /^\s*\[\s*mcp_servers\s*\.\s*(?:cairn|"cairn"|'cairn')\s*(?:\.[^\]]*)?\]\s*(?:#.*)?$/;
const ANY_HEADER = /^\s*\[{1,2}\s*[A-Za-z0-9_\-."' ]+\s*\]{1,2}\s*(?:#.*)?$/;
const MCP_SERVERS_TABLE = /^\s*\[\s*mcp_servers\s*\]\s*(?:#.*)?$/;

/**
 * `[mcp_servers.cairn]` in Codex's config.toml, edited line by line so that every other byte of the
 * user's file stays as it was (no TOML library rewrites their comments and layout). Only the cairn
 * table is touched: the marked block cairn wrote, and a `[mcp_servers.cairn]` table the user may have
 * written or moved themselves.
 */
export function installCodexServer(current: string | null, server: { command: string; args: string[] }): string {
  const text = current ?? "";
  assertNoInlineDefinition(text);
  const block = [
    TOML_MARKERS.begin,
    "[mcp_servers.cairn]",
    `command = ${tomlString(server.command)}`,
    `args = [${server.args.map(tomlString).join(", ")}]`,
    TOML_MARKERS.end,
  ];
  return upsertBlock(removeUnmarkedTables(text), TOML_MARKERS, block);
}

export function uninstallCodexServer(current: string): string {
  return removeUnmarkedTables(removeBlock(current, TOML_MARKERS));
}

/** A TOML basic string: JSON's escapes (\" \\ \n \t \uXXXX ...) are all valid TOML escapes too. */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** Removes `[mcp_servers.cairn]` and its sub-tables outside cairn's markers (header to next header). */
function removeUnmarkedTables(text: string): string {
  const lines = text.split("\n");
  const kept: string[] = [];
  let inCairn = false;
  let inMultiline = false;
  let inMarked = false;
  let trailing: string[] = [];
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (inMarked || trimmed === TOML_MARKERS.begin) {
      kept.push(line);
      inMarked = trimmed !== TOML_MARKERS.end;
      inCairn = false;
      continue;
    }
    if (!inMultiline && ANY_HEADER.test(line)) {
      // Comments and blank lines just above the next table belong to it, not to the cairn table.
      if (inCairn && !CAIRN_TABLE.test(line)) kept.push(...trailing);
      trailing = [];
      inCairn = CAIRN_TABLE.test(line);
    }
    // A header-looking line inside a multi-line string is text, not a table.
    if (((line.match(/"""/g)?.length ?? 0) + (line.match(/'''/g)?.length ?? 0)) % 2 === 1) inMultiline = !inMultiline;
    if (!inCairn) kept.push(line);
    else if (!inMultiline && /^\s*(#.*)?$/.test(line)) trailing.push(line);
    else trailing = [];
  }
  return kept.join("\n");
}

/**
 * `cairn = {...}` under `[mcp_servers]`, or a dotted `mcp_servers.cairn...` key: forms a line edit cannot
 * replace safely, and adding a table next to them would make the file invalid for Codex.
 */
function assertNoInlineDefinition(text: string): void {
  let table: "root" | "mcp_servers" | "other" = "root";
  for (const line of text.split("\n")) {
    if (ANY_HEADER.test(line)) {
      table = MCP_SERVERS_TABLE.test(line) ? "mcp_servers" : "other";
      continue;
    }
    const inline =
      (table === "mcp_servers" && /^\s*["']?cairn["']?\s*[.=]/.test(line)) ||
      (table === "root" && /^\s*mcp_servers\s*\.\s*["']?cairn["']?\s*[.=]/.test(line));
    if (inline) {
      throw new CairnError(
        "connector_conflict",
        "config.toml defines mcp_servers.cairn inline; remove that definition (or make it a [mcp_servers.cairn] table) and run 'cairn install codex' again",
      );
    }
  }
}
