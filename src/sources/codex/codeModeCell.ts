/**
 * Codex code mode (on by default since 0.144): the model writes JavaScript into an `exec` cell, which
 * calls `tools.exec_command(...)` and prints what it chooses with `text(...)`. The cell's output starts
 * with Codex's own status header (`codex-rs/core/src/tools/code_mode/mod.rs`, `prepend_script_status`):
 *
 *   Script completed | Script failed | Script terminated | Script running with cell ID <id>
 *   Wall time <n> seconds
 *   Output:
 *
 * The `success` flag Codex keeps beside it is never written to the rollout, and the header says only
 * whether the JavaScript threw, not whether the commands it ran worked: a cell that ran a failing build
 * and printed its output "completed". So a completed cell worked or failed only by an exit code its
 * printed output carries (the nested result object `{"exit_code": N, ...}` or a unified-exec
 * `Process exited with code N` line); otherwise its outcome is unknown.
 */
export interface CodeModeCell {
  status: "completed" | "failed" | "terminated" | "running";
  /** The id to `wait` on, for a cell still running. */
  cellId?: string;
  /** What the cell printed, the header removed. */
  text: string;
  /** The exit codes the printed output carries, in order. */
  exitCodes: number[];
}

const HEADER =
  /^Script (completed|failed|terminated|running with cell ID (\S+))[ \t]*\r?\n(?:Wall time[^\n]*\n?)?(?:Output:[ \t]*\r?\n?)?/;

/** The cell an `exec` output describes, or undefined when the text does not start with Codex's header. */
export function readCodeModeCell(output: string): CodeModeCell | undefined {
  const header = HEADER.exec(output);
  if (header === null) return undefined;
  const word = header[1] ?? "";
  const status = word.startsWith("running") ? "running" : (word as CodeModeCell["status"]);
  const text = output.slice(header[0].length);
  return {
    status,
    ...(header[2] === undefined ? {} : { cellId: header[2] }),
    text,
    exitCodes: status === "running" ? [] : printedExitCodes(text),
  };
}

/** The outcome a cell's status and printed exit codes support: true failed, false worked, undefined unknown. */
export function cellFailed(cell: CodeModeCell): boolean | undefined {
  if (cell.status === "failed") return true;
  if (cell.status !== "completed" || cell.exitCodes.length === 0) return undefined;
  return cell.exitCodes.some((code) => code !== 0);
}

// `Process exited with code N` is how unified exec reports an ended command; a cell that printed a
// command's whole result (`text(r)`) carries it, or the result object's `exit_code` field.
const EXITED_LINE = /^Process exited with code (-?\d+)\s*$/gm;

function printedExitCodes(text: string): number[] {
  const codes = [...text.matchAll(EXITED_LINE)].map((match) => Number(match[1]));
  return codes.length > 0 ? codes : jsonExitCodes(text);
}

/**
 * `exit_code` fields of command results the cell printed as JSON (`text(r)`, `text(JSON.stringify(rs))`).
 * Only a printed value that is itself JSON counts: a file the cell printed that merely mentions
 * `"exit_code": 1` is output, not an outcome.
 */
function jsonExitCodes(text: string): number[] {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed) || !trimmed.includes('"exit_code"')) return [];
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    // Printed text that only looks like JSON carries no result object.
    return [];
  }
  const codes: number[] = [];
  collectExitCodes(value, codes, 0);
  return codes;
}

function collectExitCodes(value: unknown, codes: number[], depth: number): void {
  if (depth > 4 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const entry of value) collectExitCodes(entry, codes, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.exit_code === "number") codes.push(record.exit_code);
  else for (const entry of Object.values(record)) collectExitCodes(entry, codes, depth + 1);
}
