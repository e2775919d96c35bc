/** The commands (code spans) a text names, whitespace collapsed; spans under four characters are left out. */
export function commandsIn(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)]
    .map((match) => (match[1] ?? "").replace(/\s+/g, " ").trim())
    .filter((command) => command.length >= 4);
}

/** Whether `text` holds `command` as a whole command, not inside a longer word (`npm test` in `pnpm test`). */
export function containsCommand(text: string, command: string): boolean {
  return commandPattern(command).test(text);
}

/** A pattern matching `command` as a whole command, any run of white space for a space. */
export function commandPattern(command: string): RegExp {
  const escaped = command.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");
  return new RegExp(`(?<![\\w./-])${escaped}(?![\\w/-])`, "i");
}
