import { CairnError } from "../util/errors.js";

/**
 * The CLI entry `cairn install` names in an agent's config: `<package>/dist/cli/main.cjs` (`main.js` in
 * earlier versions), or `src/cli/main.ts` in a source checkout run through tsx.
 */
const CLI_ENTRY = /[\\/]cli[\\/]main\.(?:c?js|ts)$/;

/**
 * Whether `argv` (command, then arguments) is an entry `cairn install` wrote, of this or an earlier
 * version, from any folder: `<node> [--import <loader>] <entry> [--home <dir>] <words...>`. An entry of
 * cairn's name in any other form is the user's (their own server, or cairn wired by hand): install
 * refuses to replace it and uninstall leaves it, so the user never loses it.
 */
export function writtenByInstall(argv: readonly unknown[], words: readonly string[]): boolean {
  const at = cliEntryIndex(argv);
  if (at < 0) return false;
  const rest = argv[at + 1] === "--home" ? argv.slice(at + 3) : argv.slice(at + 1);
  return words.every((word, i) => rest[i] === word);
}

/** Where cairn's CLI entry sits in `argv`; -1 when it names none. */
export function cliEntryIndex(argv: readonly unknown[]): number {
  return argv.findIndex((arg, i) => i > 0 && typeof arg === "string" && CLI_ENTRY.test(arg));
}

/** An MCP server entry's command line: `command` plus `args` (Claude Code, Gemini CLI, Codex), or OpenCode's `command` list. */
export function serverArgv(entry: unknown): unknown[] {
  if (typeof entry !== "object" || entry === null) return [];
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (Array.isArray(command)) return command;
  return [command, ...(Array.isArray(args) ? args : [])];
}

/**
 * The words of a hook's shell command, for the commands `shellCommand` writes (bare words and
 * single-quoted ones); undefined for anything a shell would expand or chain, which cairn never writes.
 */
export function shellWords(command: string): string[] | undefined {
  const words: string[] = [];
  const word = /(?:[^\s'"\\$`;&|<>()]+|'[^']*'|\\')+/y;
  let at = 0;
  while (at < command.length) {
    if (/\s/.test(command[at] ?? "")) {
      at += 1;
      continue;
    }
    word.lastIndex = at;
    const match = word.exec(command);
    if (!match) return undefined;
    // '\'' is how shellWord writes a quote: the pieces join, the quotes go.
    words.push(
      match[0].replace(/'([^']*)'|\\(')/g, (_all, quoted: string | undefined, quote: string) => quoted ?? quote),
    );
    at = word.lastIndex;
  }
  return words;
}

/** The refusal for an entry of cairn's name that `cairn install` did not write. */
export function notWrittenByInstall(options: { file: string; what: string; agent: string }): CairnError {
  return new CairnError(
    "connector_conflict",
    `${options.file} already has ${options.what} that 'cairn install' did not write, so cairn changed nothing; rename or remove it and run 'cairn install ${options.agent}' again`,
  );
}
