/**
 * The ways agents show a file's lines, each as a function of the line number and the line. A secret
 * read from a file reaches cairn in one of these forms, so every rule must work through each.
 *
 * Where each comes from:
 * - Claude Code's Read tool: the number right-aligned in 6 columns, then U+2192 (seen in the
 *   transcripts under ../shared/fixtures/transcripts/claude-code); older versions used a tab, which
 *   is also what `cat -n` and `nl -ba` print (Codex shell output in ../shared/fixtures/transcripts/codex).
 * - OpenCode's read tool: the number zero-padded to 5 and "| " (packages/opencode/src/tool/read.ts in
 *   sst/opencode), later " |", and since 2026 "N: " inside <content>.
 * - `grep -n` / `rg -n`: "N:" (with a file name: "path:N:"), context lines "N-".
 * - oh-my-pi's read tool in hashline mode: "N#HASH:" or "N:HASH|" (can1357/oh-my-pi, patch/hashline.ts).
 * - A unified diff (Claude Code's Edit result, `git diff`): "+" before each added line.
 * Gemini CLI's read_file and pi's read tool return the lines as they are.
 */
export const FILE_VIEWS: Record<string, (n: number, line: string) => string> = {
  "claude-code read": (n, line) => `${String(n).padStart(6)}\u2192${line}`,
  "cat -n / nl -ba / older read": (n, line) => `${String(n).padStart(6)}\t${line}`,
  "opencode read": (n, line) => `${String(n).padStart(5, "0")}| ${line}`,
  "opencode read, bar first": (n, line) => `${String(n).padStart(5, "0")} |${line}`,
  "opencode read (2026)": (n, line) => `${n}: ${line}`,
  "grep -n": (n, line) => `${n}:${line}`,
  "rg -n with path": (n, line) => `config/app.env:${n}:${line}`,
  "rg context line": (n, line) => `${n}-${line}`,
  "omp hashline": (n, line) => `${n}#ZP:${line}`,
  "omp hashline, bar": (n, line) => `${n}:a3f2| ${line}`,
  "diff added line": (_n, line) => `+${line}`,
};

/** `text` as a file view starting at line `first`. */
export function asFileView(text: string, view: (n: number, line: string) => string, first = 7): string {
  return text
    .split("\n")
    .map((line, i) => view(first + i, line))
    .join("\n");
}
