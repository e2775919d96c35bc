import type { ItemRecord } from "../../../collection/types.js";
import { CODE_CELL_TOOL, cellCommands } from "./cellCommands.js";
import {
  exitLinePattern,
  failureOutputPattern,
  inspectionProgramPattern,
  noiseLinePattern,
  shellTools,
  stoppedByUserPattern,
  successOutputPattern,
  unfinishedPattern,
} from "./patterns.js";

/**
 * What a run showed. `unknown` when it cannot be told or says nothing about the project: no result was
 * recorded, the user stopped it, it had not finished, the program only looked (a grep that found
 * nothing exits 1; see inspectionProgramPattern), or the command was piped into a filter whose exit
 * status stood in for its own and the output shows neither a failure nor a success.
 */
export type RunOutcome = "failed" | "succeeded" | "unknown";

export interface CommandRun {
  command: string;
  callItemId: number;
  resultItemId: number | null;
  outcome: RunOutcome;
  /** The line of a failing output that says why. */
  errorLine: string | null;
  /** The user refused or stopped it: it did not run (or not to its end), whatever its error flag says. */
  stopped?: boolean;
}

/** Output read for signs of failure or success: the head, where a long log's first error is. */
const OUTPUT_READ = 20_000;

/**
 * Pairs shell tool calls with their results and tells what each run showed. With the session's `cwd`,
 * a leading `cd` into it is dropped and one below it made relative: `cd <cwd> && npm test` is
 * `npm test` in that checkout and wrong in any other.
 */
export function commandRuns(items: Iterable<ItemRecord>, cwd: string | null = null): CommandRun[] {
  const reader = new CommandRunReader(cwd);
  for (const item of items) reader.add(item);
  return reader.runs();
}

/** A shell call seen, waiting for the result that ends it. */
interface PendingRun {
  command: string;
  filtered: boolean;
  callItemId: number;
  callId: string | null;
  /** One of several commands of a code-mode cell: the cell's one result cannot be told apart between them. */
  shared?: boolean;
}

/**
 * What a tool result says about a run, read once when it passes: all an outcome needs, so that a
 * session's outputs (often most of its bytes) are not held until its end.
 */
interface ResultReading {
  id: number;
  /** The user stopped the run, or it had not finished. */
  unknown: boolean;
  /** The user stopped it. */
  stopped: boolean;
  /** A failure, read as a command whose exit status is its own. */
  failed: boolean;
  /** A failure or a success printed, for a command whose exit status was a filter's. */
  printedFailure: boolean;
  printedSuccess: boolean;
  errorLine: string | null;
}

/**
 * commandRuns one item at a time, in session order. It keeps each shell call and a small reading of
 * each result that may end one, never an item's text. The last result of a call is its end (Codex's
 * exec_command_end comes after a "still running" answer), so outcomes are told at the end.
 */
export class CommandRunReader {
  private readonly pending: PendingRun[] = [];
  private readonly results = new Map<string, ResultReading>();
  /** Calls of other tools: their results are not read. */
  private readonly otherCalls = new Set<string>();

  constructor(private readonly cwd: string | null = null) {}

  add(item: ItemRecord): void {
    if (item.role === "tool_result" && item.callId) {
      if (!this.otherCalls.has(item.callId)) this.results.set(item.callId, readResult(item));
      return;
    }
    if (item.role !== "tool_call") return;
    const runs = item.tool === CODE_CELL_TOOL ? this.cellRuns(item) : [];
    const run = item.tool && shellTools.has(item.tool) ? this.shellRun(item.text, item) : undefined;
    if (run) runs.push(run);
    if (runs.length > 0) this.pending.push(...runs);
    else if (item.callId) this.otherCalls.add(item.callId);
  }

  runs(): CommandRun[] {
    return this.pending.map((run) => {
      const result = run.callId ? this.results.get(run.callId) : undefined;
      const outcome = run.shared ? "unknown" : outcomeOf(run.command, run.filtered, result);
      return {
        command: run.command.slice(0, 300),
        callItemId: run.callItemId,
        resultItemId: result?.id ?? null,
        outcome,
        errorLine: outcome === "failed" && result ? result.errorLine : null,
        ...(result?.stopped ? { stopped: true } : {}),
      };
    });
  }

  private shellRun(text: string, item: ItemRecord): PendingRun | undefined {
    const line = commandLine(text);
    if (!line) return undefined;
    const { command: full, filtered } = withoutFilters(line);
    const command = relativeToCwd(full, this.cwd);
    if (!command) return undefined;
    return { command, filtered, callItemId: item.id, callId: item.callId };
  }

  /**
   * The commands a code-mode cell ran, each paired with the cell's result: the outcome the adapter read
   * from it (an exit code the cell printed, a failed script, or unknown) is that command's when the cell
   * ran one command, and unknown when it ran several or some it does not name.
   */
  private cellRuns(item: ItemRecord): PendingRun[] {
    const { commands, calls } = cellCommands(item.text);
    const shared = calls > 1;
    return commands.flatMap((command) => {
      const run = this.shellRun(command, item);
      return run ? [shared ? { ...run, shared } : run] : [];
    });
  }
}

function readResult(result: ItemRecord): ResultReading {
  const output = result.text.slice(0, OUTPUT_READ);
  const failed = result.isError || failureOutputPattern.test(output);
  // The exit status is the filter's: a grep for "error" that found none exits 1, one that found some 0.
  const printed = output
    .split("\n")
    .filter((text) => !exitLinePattern.test(text.trim()))
    .join("\n");
  const printedFailure = failureOutputPattern.test(printed);
  const printedSuccess = successOutputPattern.test(printed);
  // A result whose transcript shows no outcome (a Codex code-mode cell without an exit code) worked only
  // if it printed a success.
  const unstated = result.outcomeUnknown === true && !failed && !printedSuccess;
  const stopped = stoppedByUserPattern.test(output);
  const unknown = unstated || stopped || unfinishedPattern.test(output.trimStart());
  return {
    id: result.id,
    unknown,
    stopped,
    failed,
    printedFailure,
    printedSuccess,
    errorLine: failed || printedFailure ? firstErrorLine(result.text) : null,
  };
}

function outcomeOf(command: string, filtered: boolean, result: ResultReading | undefined): RunOutcome {
  if (!result || inspectionProgramPattern.test(withoutPrefixes(command))) return "unknown";
  if (result.unknown) return "unknown";
  if (!filtered) return result.failed ? "failed" : "succeeded";
  if (result.printedFailure) return "failed";
  return result.printedSuccess ? "succeeded" : "unknown";
}

/** A command line as commandRuns records it for a session in `cwd`: plumbing removed, its `cd` made relative. */
export function sessionCommand(line: string, cwd: string | null): string {
  const { command } = withoutFilters(line.replace(/\s+/g, " ").trim());
  return relativeToCwd(command, cwd).slice(0, 300);
}

/** The command line from a tool call's text (JSON arguments for most agents), plumbing removed. */
export function commandText(text: string): string | undefined {
  const line = commandLine(text);
  const command = line === undefined ? "" : withoutFilters(line).command;
  return command.length > 0 ? command.slice(0, 300) : undefined;
}

function commandLine(text: string): string | undefined {
  let command: unknown = text;
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const args = JSON.parse(trimmed) as Record<string, unknown>;
      command = args.cmd ?? args.command ?? args.commandLine ?? args.script;
    } catch {
      command = trimmed;
    }
  }
  if (Array.isArray(command)) {
    const parts = command.map(String);
    // ["bash", "-lc", "npm test"] is how Codex wraps a shell line.
    command =
      parts.length === 3 && /sh$/.test(parts[0] ?? "") && parts[1]?.startsWith("-") ? parts[2] : parts.join(" ");
  }
  if (typeof command !== "string") return undefined;
  const line = command.replace(/\s+/g, " ").trim();
  return line.length > 0 ? line : undefined;
}

/** Programs an agent pipes output into to keep its context small. */
const FILTER = /^(?:tail|head|grep|egrep|fgrep|rg|sed|awk|less|more|cat|wc|sort|uniq|cut|tr|tee|jq)\b/;

/**
 * The command a person would remember: output plumbing an agent adds to keep its context small
 * (`2>&1`, `| tail -5`, `| grep -E "error|warn"`, `| head`) says nothing about how the project works.
 */
export function canonicalCommand(line: string): string {
  return withoutFilters(line).command;
}

/** The command without its trailing filter stages, and whether any was removed (then its exit status was theirs). */
function withoutFilters(line: string): { command: string; filtered: boolean } {
  const stages = pipeStages(line.replace(/\s+2>&1\b/g, ""));
  let kept = stages.length;
  while (kept > 1 && FILTER.test(stages[kept - 1]!.trim())) kept -= 1;
  return {
    command: stages
      .slice(0, kept)
      .map((stage) => stage.trim())
      .join(" | "),
    filtered: kept < stages.length,
  };
}

/** A shell line split at its pipes, leaving alone those in quotes and `||`. */
function pipeStages(line: string): string[] {
  const stages: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote) {
      if (char === "\\" && quote === '"') i++;
      else if (char === quote) quote = null;
    } else if (char === "\\") i++;
    else if (char === '"' || char === "'") quote = char;
    else if (char === "|" && line[i + 1] !== "|" && line[i - 1] !== "|") {
      stages.push(line.slice(start, i));
      start = i + 1;
    }
  }
  stages.push(line.slice(start));
  return stages;
}

/** The line that says why a command failed: a failure sign, else the first line that is not noise or an exit status. */
function firstErrorLine(output: string): string | null {
  const lines = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !noiseLinePattern.test(line));
  const said =
    lines.find((line) => failureOutputPattern.test(`\n${line}`)) ??
    lines.find((line) => !exitLinePattern.test(line)) ??
    lines[0];
  return said ? said.slice(0, 200) : null;
}

function relativeToCwd(command: string, cwd: string | null): string {
  if (cwd === null) return command;
  const root = cwd.replace(/\/+$/, "");
  const match = /^cd (["']?)([^"'\s]+)\1 && (.+)$/.exec(command);
  if (!match || root === "") return command;
  const dir = match[2]!.replace(/\/+$/, "");
  if (dir === root) return match[3]!;
  return dir.startsWith(`${root}/`) ? `cd ${dir.slice(root.length + 1)} && ${match[3]}` : command;
}

/** The command without the `cd dir &&`, `sudo` and `env X=1` that open it. */
function withoutPrefixes(command: string): string {
  return command.replace(/^(?:cd \S+ && |sudo |env \S+=\S+ )+/, "");
}

/**
 * The program and subcommand that identify a command family (`npm test`, `cargo build`, `pytest`); a
 * script runner's script is part of it (`npm run check` and `npm run version:minor` are different
 * commands, as are `npx tsc` and `npx vitest`).
 */
export function commandFamily(command: string): string {
  const words = withoutPrefixes(command).split(" ");
  const [program = "", sub = "", script = ""] = words;
  const named = (word: string) => /^[a-z@][\w:./@-]*$/i.test(word) && !word.startsWith("-");
  if (RUNNERS.test(program)) return named(sub) ? `${program} ${sub}` : program;
  if (!named(sub)) return program;
  return SCRIPT_SUBCOMMANDS.test(sub) && named(script) ? `${program} ${sub} ${script}` : `${program} ${sub}`;
}

/** Programs whose first word names the tool they run. */
const RUNNERS = /^(?:npx|pnpx|bunx)$/;
/** Subcommands whose next word names the script or tool they run. */
const SCRIPT_SUBCOMMANDS = /^(?:run|run-script|exec|dlx|x)$/;
