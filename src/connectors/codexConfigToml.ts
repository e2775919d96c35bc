import { isDeepStrictEqual } from "node:util";
import { edit, initSync, parse } from "@rainbowatcher/toml-edit-js";
import { CairnError } from "../util/errors.js";
import { notWrittenByInstall, serverArgv, writtenByInstall } from "./cairnEntry.js";

/** `[mcp_servers.cairn]` as Codex reads it (https://developers.openai.com/codex/mcp, stdio servers). */
export interface CodexServerEntry {
  command: string;
  args: string[];
  /** Names of variables Codex forwards from its own environment; never their values. */
  env_vars: string[];
}

/** The comment above a table cairn appends; toml_edit keeps it with the table, so uninstall removes both. */
export const CAIRN_TABLE_COMMENT = "# added by 'cairn install codex'; 'cairn uninstall codex' removes it";

/** The marker lines earlier versions of cairn wrote around the table; removed when seen. */
const LEGACY_MARKERS = [
  "# >>> cairn: added by 'cairn install codex'; 'cairn uninstall codex' removes it >>>",
  "# <<< cairn <<<",
];

type TomlTable = Record<string, unknown>;

/**
 * Codex's `config.toml` with `[mcp_servers.cairn]` running `server`, edited through toml_edit (the Rust
 * crate Codex itself reads and writes this file with, compiled to WebAssembly), so the user's comments,
 * order, quoting and every other table stay as they were. Keys the user added to cairn's table
 * (`startup_timeout_sec`, `enabled`, ...) are kept; a `cairn` server install did not write is refused. The result is parsed and compared with the input
 * before it is returned: anything else changing, or a result that does not parse, is refused and
 * nothing is written. Returns `current` itself when cairn's entry already runs `server`.
 */
export function installCodexServer(
  current: string | null,
  options: { server: CodexServerEntry; file: string },
): string {
  const { server, file } = options;
  const text = current ?? "";
  const before = parseConfig(text, file, "install");
  const existing = cairnEntry(before);
  if (existing !== undefined && !writtenByInstall(serverArgv(existing), ["mcp"])) {
    throw notWrittenByInstall({ file, what: "an MCP server named 'cairn' ([mcp_servers.cairn])", agent: "codex" });
  }
  const wanted = isTable(existing) ? { ...existing, ...server } : server;
  if (isDeepStrictEqual(existing, wanted)) return text;
  const base = withoutLegacyMarkers(text);
  const edited = !("mcp_servers" in before)
    ? appendTable(base, server)
    : runEdit(() => setEntry(base, server, isTable(existing)), file, "install");
  const next = withLineEndingsOf(text, edited);
  const after = parseConfig(next, file, "install");
  if (!isDeepStrictEqual(cairnEntry(after), wanted) || !isDeepStrictEqual(withoutCairn(after), withoutCairn(before))) {
    throw refusal(file, "install", "the edit would change more than [mcp_servers.cairn]");
  }
  return next;
}

/** The file without `mcp_servers.cairn` (in whichever form it was written); everything else kept. */
export function uninstallCodexServer(current: string, options: { file: string }): string {
  const { file } = options;
  const before = parseConfig(current, file, "uninstall");
  const base = withoutLegacyMarkers(current);
  // The user's own server of that name is not cairn's to remove (install refuses to replace one).
  const existing = cairnEntry(before);
  if (existing === undefined || !writtenByInstall(serverArgv(existing), ["mcp"])) return base;
  const next = withLineEndingsOf(
    current,
    runEdit(() => edit(base, "mcp_servers.cairn", undefined), file, "uninstall"),
  );
  const after = parseConfig(next, file, "uninstall");
  if (cairnEntry(after) !== undefined || !isDeepStrictEqual(withoutCairn(after), withoutCairn(before))) {
    throw refusal(file, "uninstall", "the edit would change more than [mcp_servers.cairn]");
  }
  return next;
}

/** The command line of `[mcp_servers.cairn]` when install wrote it, for `cairn doctor`. */
export function installedCodexServerArgv(text: string, file: string): unknown[][] {
  const argv = serverArgv(cairnEntry(parseConfig(text, file, "install")));
  return writtenByInstall(argv, ["mcp"]) ? [argv] : [];
}

/** A TOML basic string: JSON's escapes (\" \\ \n \t \uXXXX ...) are all valid TOML escapes too. */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** A file without `mcp_servers` gets a new table at its end, after one blank line. */
function appendTable(text: string, server: CodexServerEntry): string {
  const table = [
    CAIRN_TABLE_COMMENT,
    "[mcp_servers.cairn]",
    `command = ${tomlString(server.command)}`,
    `args = [${server.args.map(tomlString).join(", ")}]`,
    `env_vars = [${server.env_vars.map(tomlString).join(", ")}]`,
    "",
  ].join("\n");
  if (text.trim() === "") return table;
  return `${text.replace(/\s*$/, "")}\n\n${table}`;
}

/**
 * Sets the entry inside an existing `mcp_servers` (a table, an inline table or dotted keys): key by key
 * in a cairn table that exists, so the user's other keys and comments there stay; whole otherwise.
 */
function setEntry(text: string, server: CodexServerEntry, tableExists: boolean): string {
  if (!tableExists) return edit(text, "mcp_servers.cairn", server, { inline: false });
  let next = text;
  for (const [key, value] of Object.entries(server)) next = edit(next, `mcp_servers.cairn.${key}`, value);
  return next;
}

function runEdit(fn: () => string, file: string, direction: "install" | "uninstall"): string {
  initSync();
  try {
    return fn();
  } catch (error) {
    // toml_edit reports a key it cannot set (mcp_servers is an array or a value) as "invalid key".
    throw refusal(file, direction, `mcp_servers cannot hold a cairn table there (${oneLine(error)})`);
  }
}

function parseConfig(text: string, file: string, direction: "install" | "uninstall"): TomlTable {
  initSync();
  try {
    return parse(text) as TomlTable;
  } catch (error) {
    throw refusal(file, direction, `it is not valid TOML (${oneLine(error)})`);
  }
}

function refusal(file: string, direction: "install" | "uninstall", why: string): CairnError {
  return new CairnError(
    "connector_conflict",
    `${file}: not changed, ${why}; fix the file and run 'cairn ${direction} codex' again`,
  );
}

/** toml_edit throws strings like "Parse Error: TOML parse error at line 1, column 9\n  |\n ... \nmessage". */
function oneLine(error: unknown): string {
  const lines = String(error instanceof Error ? error.message : error)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("|") && !/^\d+ \|/.test(line));
  return lines.join(": ").replace(/^(Parse|Key) Error: /, "");
}

function cairnEntry(doc: TomlTable): unknown {
  const servers = doc.mcp_servers;
  return isTable(servers) ? servers.cairn : undefined;
}

/** The document as Codex sees it minus cairn's entry (and an `mcp_servers` left empty by that). */
function withoutCairn(doc: TomlTable): TomlTable {
  const servers = doc.mcp_servers;
  if (!isTable(servers)) return doc;
  const { cairn: _cairn, ...others } = servers;
  const { mcp_servers: _servers, ...rest } = doc;
  return Object.keys(others).length === 0 ? rest : { ...rest, mcp_servers: others };
}

function isTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Drops the marker lines of earlier cairn versions, unless one sits inside a string (then parsing differs). */
function withoutLegacyMarkers(text: string): string {
  const stripped = text
    .split("\n")
    .filter((line) => !LEGACY_MARKERS.includes(line.trimEnd()))
    .join("\n");
  if (stripped === text) return text;
  try {
    return isDeepStrictEqual(parse(stripped), parse(text)) ? stripped : text;
  } catch {
    return text;
  }
}

/** toml_edit writes `\n`; a file written with `\r\n` keeps them. */
function withLineEndingsOf(original: string, next: string): string {
  const crlf = original.includes("\r\n") && !/(^|[^\r])\n/.test(original);
  return crlf ? next.replace(/\r?\n/g, "\r\n") : next;
}
