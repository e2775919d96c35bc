import type { ItemRecord } from "../../../collection/types.js";
import { failureOutputPattern, shellTools } from "./patterns.js";

export interface CommandRun {
  command: string;
  callItemId: number;
  resultItemId: number | null;
  failed: boolean;
  /** First meaningful line of a failing output. */
  errorLine: string | null;
}

/** Pairs shell tool calls with their results and classifies each run as succeeded or failed. */
export function commandRuns(items: readonly ItemRecord[]): CommandRun[] {
  const results = new Map<string, ItemRecord>();
  for (const item of items) if (item.role === "tool_result" && item.callId) results.set(item.callId, item);
  const runs: CommandRun[] = [];
  for (const item of items) {
    if (item.role !== "tool_call" || !item.tool || !shellTools.has(item.tool)) continue;
    const command = commandText(item.text);
    if (!command) continue;
    const result = item.callId ? results.get(item.callId) : undefined;
    const failed = result ? result.isError || failureOutputPattern.test(result.text.slice(0, 20_000)) : false;
    runs.push({
      command,
      callItemId: item.id,
      resultItemId: result?.id ?? null,
      failed,
      errorLine: failed && result ? firstErrorLine(result.text) : null,
    });
  }
  return runs;
}

/** The command line from a tool call's text, which is JSON arguments for most agents. */
export function commandText(text: string): string | undefined {
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
  const line = canonicalCommand(command.replace(/\s+/g, " ").trim());
  return line.length > 0 ? line.slice(0, 300) : undefined;
}

/**
 * The command a person would remember: output plumbing an agent adds to keep its context small
 * (`2>&1`, `| tail -5`, `| grep error`, `| head`) says nothing about how the project works.
 */
export function canonicalCommand(line: string): string {
  let command = line.replace(/\s+2>&1\b/g, "");
  for (;;) {
    const trimmed = command.replace(
      /\s*\|\s*(?:tail|head|grep|egrep|rg|sed|less|more|cat|wc|sort|uniq|cut|tr)\b[^|]*$/,
      "",
    );
    if (trimmed === command) return command.trim();
    command = trimmed;
  }
}

function firstErrorLine(output: string): string | null {
  for (const line of output.split("\n")) {
    const trimmed = line.trim();
    if (trimmed && failureOutputPattern.test(`\n${trimmed}`)) return trimmed.slice(0, 200);
  }
  const first = output.split("\n").find((line) => line.trim().length > 0);
  return first ? first.trim().slice(0, 200) : null;
}

/** The program and subcommand that identify a command family (`npm test`, `cargo build`, `pytest`). */
export function commandFamily(command: string): string {
  const words = command.replace(/^(?:cd \S+ && |sudo |env \S+=\S+ )+/, "").split(" ");
  const [program = "", sub = ""] = words;
  return /^[a-z][\w:.-]*$/i.test(sub) && !sub.startsWith("-") ? `${program} ${sub}` : program;
}
