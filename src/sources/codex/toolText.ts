import { asRecord, asString } from "../jsonl.js";
import { cellFailed, readCodeModeCell } from "./codeModeCell.js";

/**
 * What a tool call asked for, compact enough to scan: the command line for shell-like tools, the raw
 * input for free-form tools, compact JSON for everything else.
 */
export function renderCallArguments(raw: unknown): string {
  if (typeof raw !== "string") return raw === undefined ? "" : renderInput(raw);
  const parsed = tryParseJson(raw);
  return parsed === undefined ? raw : renderInput(parsed);
}

export function renderInput(value: unknown): string {
  const record = asRecord(value);
  const command = record === undefined ? undefined : commandText(record.cmd ?? record.command);
  return command ?? (typeof value === "string" ? value : JSON.stringify(value));
}

export function commandText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!Array.isArray(value) || !value.every((part) => typeof part === "string")) return undefined;
  const argv = value as string[];
  // `["bash", "-lc", "<script>"]` is how Codex wraps every shell command; the script is what ran.
  if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0] ?? "") && /^-l?c$/.test(argv[1] ?? "")) return argv[2];
  return argv.join(" ");
}

export interface ToolOutput {
  text: string;
  /** Known only when the output carries an exit code, a success flag or Codex's own failure wording. */
  isError?: boolean;
  /** The output says neither: a code-mode cell whose printed text carries no exit code, a command still running. */
  unknown?: true;
  exitCode?: number;
  /**
   * The command was still running when its output was recorded (unified exec answers after a short
   * wait): this is not its result; `exec_command_end` carries that, with the exit code.
   */
  running?: boolean;
  /** A code-mode cell still running: a later `wait` on this id brings its result. */
  cellId?: string;
}

/**
 * Outputs come as a plain string, a JSON string `{"output", "metadata": {"exit_code"}}` (older shells and
 * apply_patch), an array of content parts, or an object with `content`/`success`.
 */
export function readToolOutput(output: unknown): ToolOutput {
  if (typeof output === "string") return readStringOutput(output);
  if (Array.isArray(output)) return readCellOrText(contentPartsText(output));
  const record = asRecord(output);
  if (record === undefined) return { text: "" };
  const content = record.content;
  const text = typeof content === "string" ? content : Array.isArray(content) ? contentPartsText(content) : "";
  return typeof record.success === "boolean" ? { text, isError: !record.success } : { text };
}

function readStringOutput(output: string): ToolOutput {
  const wrapped = asRecord(tryParseJson(output));
  if (wrapped !== undefined && typeof wrapped.output === "string") {
    const exitCode = asRecord(wrapped.metadata)?.exit_code;
    return typeof exitCode === "number"
      ? { text: wrapped.output, isError: exitCode !== 0, exitCode }
      : { text: wrapped.output };
  }
  return readCodexFailure(output) ?? readCellOrText(output);
}

function readCellOrText(output: string): ToolOutput {
  const cell = readCodeModeCell(output);
  if (cell === undefined) return readExecHeader(output);
  const exitCode = cell.exitCodes.find((code) => code !== 0) ?? cell.exitCodes[0];
  const failed = cellFailed(cell);
  if (cell.status === "running") {
    // What a still-running cell printed so far keeps a line saying so: it is not a result.
    const note = `Script running with cell ID ${cell.cellId ?? "?"}`;
    const text = cell.text.trim() === "" ? "" : `${note}\n${cell.text}`;
    return { text, unknown: true, running: true, ...(cell.cellId === undefined ? {} : { cellId: cell.cellId }) };
  }
  // A terminated cell was stopped before it finished: what it printed is kept with the word.
  const text = cell.status === "terminated" ? `Script terminated\n${cell.text}` : cell.text;
  return {
    text,
    ...(failed === undefined ? { unknown: true as const } : { isError: failed }),
    ...(exitCode === undefined ? {} : { exitCode }),
  };
}

/**
 * Codex's own words for a command that never ran to an exit status (older rollouts, `codex-rs/core/src/codex.rs`):
 * a sandbox denial, a timeout, an error starting it, a retry that failed, a command the user rejected.
 */
const CODEX_FAILURE =
  /^(?:failed in sandbox \S+ with execution error:|command timed out after \d+ milliseconds|execution error:|retry failed:|exec command rejected by user)/;
const FAILURE_EXIT_CODE = /\bexit code: (-?\d+)/;

function readCodexFailure(output: string): ToolOutput | undefined {
  if (!CODEX_FAILURE.test(output)) return undefined;
  const code = FAILURE_EXIT_CODE.exec(output.slice(0, 300));
  return { text: output, isError: true, ...(code === null ? {} : { exitCode: Number(code[1]) }) };
}

// Unified exec prefixes its output with "Chunk ID / Wall time / Process exited with code N / Output:".
const HEADER_START = /^(Chunk ID|Wall time|Exit code|Process exited|Command):/;
const EXIT_CODE = /(?:exited with code|Exit code:)\s*(-?\d+)/;
const RUNNING = /^Process running with session ID\b.*$/m;

function readExecHeader(output: string): ToolOutput {
  if (!HEADER_START.test(output)) return { text: output };
  const marker = output.indexOf("Output:\n");
  if (marker === -1 || marker > 600) return { text: output };
  const header = output.slice(0, marker);
  const text = output.slice(marker + "Output:\n".length);
  const exit = EXIT_CODE.exec(header);
  if (exit === null) {
    // What a still-running command printed so far keeps Codex's line saying so: it is not a result.
    const running = RUNNING.exec(header);
    return running === null
      ? { text }
      : { text: text.trim() === "" ? "" : `${running[0]}\n${text}`, running: true, unknown: true };
  }
  const exitCode = Number(exit[1]);
  return { text, isError: exitCode !== 0, exitCode };
}

function contentPartsText(parts: unknown[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    const record = asRecord(part);
    const text = asString(record?.text);
    if (text !== undefined) texts.push(text);
    else if (typeof record?.type === "string" && record.type.includes("image")) texts.push("[image]");
  }
  return texts.join("\n");
}

function tryParseJson(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON after all: the caller keeps the raw text.
    return undefined;
  }
}
