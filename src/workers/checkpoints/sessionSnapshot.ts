import type { ItemRecord, SessionRecord } from "../../collection/types.js";
import { describeGitActions, gitActions } from "../../pipeline/phase1/offline/gitActions.js";
import { headline } from "../../pipeline/phase1/offline/sentences.js";
import { readSession } from "../../pipeline/phase1/offline/sessionReading.js";
import { isHarnessText } from "../../pipeline/phase1/offline/userTurns.js";
import type { CheckpointState } from "../../store/repositories/checkpointRepository.js";

/** What a checkpoint records of a session at one moment, read from its items without a model. */
export interface SessionSnapshot {
  /** The user's prompts seen (harness text and bare continuations are not prompts). */
  promptTotal: number;
  /** What the session asked memory: cairn recall calls (MCP tools, the pi tool, `cairn recall`). */
  memoryQueries: string[];
  /** What the session saved: cairn remember calls. */
  recentRemembers: string[];
  state: CheckpointState;
}

/** The caps of seed 004: a checkpoint keeps at most this many queries and remembers (the latest). */
export const MAX_QUERIES = 20;
export const MAX_REMEMBERS = 10;
const FOCUS_KEPT = 3;
const COMMANDS_KEPT = 8;
const FILES_KEPT = 10;

/**
 * Reads a session's items as the offline extractor does (src/pipeline/phase1/offline/sessionReading.ts:
 * commands and their outcomes, files written, where work stopped, git actions) plus what a checkpoint
 * needs beyond it: the latest requests rather than the first, the prompt count, and the session's own
 * memory calls. Items may come from the store or straight from a transcript the hook was handed.
 */
export function sessionSnapshot(session: SessionRecord, items: readonly ItemRecord[]): SessionSnapshot {
  const focus: string[] = [];
  let promptTotal = 0;
  const queries: string[] = [];
  const remembers: string[] = [];
  for (const item of items) {
    if (item.role === "user" && !isHarnessText(item.text)) {
      promptTotal++;
      focus.push(headline(item.text, 200));
      if (focus.length > FOCUS_KEPT) focus.shift();
    } else if (item.role === "tool_call") {
      const call = memoryCall(item);
      if (call?.kind === "recall") pushLatest(queries, call.text, MAX_QUERIES);
      if (call?.kind === "remember") pushLatest(remembers, call.text, MAX_REMEMBERS);
    }
  }
  const reading = readSession(session, items);
  const runs = reading?.runs ?? [];
  const git = describeGitActions(gitActions(runs));
  const commands = runs
    .filter((run) => !run.stopped)
    .slice(-COMMANDS_KEPT)
    .map((run) => ({
      command: headline(run.command, 160),
      outcome: run.outcome,
      ...(run.outcome === "failed" && run.errorLine ? { error: headline(run.errorLine, 160) } : {}),
    }));
  const openWork = reading?.openWork ? `${headline(reading.openWork.request, 160)}: ${reading.openWork.text}` : null;
  const outcome = reading?.outcome && !reading.openWork ? headline(reading.outcome.text, 200) : null;
  return {
    promptTotal,
    memoryQueries: queries,
    recentRemembers: remembers,
    state: {
      focus,
      commands,
      files: (reading?.files ?? []).slice(0, FILES_KEPT).map((file) => file.path),
      openWork,
      git,
      outcome,
    },
  };
}

/**
 * A tool call to cairn's memory: an MCP tool of the `cairn` server (`mcp__cairn__recall` in Claude Code,
 * `mcp_cairn_recall` in Gemini CLI, `cairn.recall` or `cairn_recall` elsewhere) with its query or text,
 * or a shell command running `cairn recall "..."` / `cairn remember "..."`.
 */
function memoryCall(item: ItemRecord): { kind: "recall" | "remember"; text: string } | undefined {
  const tool = item.tool ?? "";
  const named = /(?:^|[^a-z])cairn[^a-z]+(recall|remember)$/i.exec(tool);
  if (named) {
    const input = parseObject(item.text);
    const text = input?.query ?? input?.text ?? input?.content;
    return typeof text === "string" && text.trim() !== ""
      ? { kind: named[1]!.toLowerCase() as "recall" | "remember", text: headline(text, 200) }
      : undefined;
  }
  const input = parseObject(item.text);
  const command = typeof input?.command === "string" ? input.command : tool === "" ? "" : item.text;
  const shell = /\bcairn\s+(recall|remember)\s+(?:--?[\w-]+(?:[ =]\S+)?\s+)*(?:"([^"]+)"|'([^']+)')/.exec(command);
  if (!shell) return undefined;
  return { kind: shell[1] as "recall" | "remember", text: headline(shell[2] ?? shell[3] ?? "", 200) };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Appends `value` as the newest entry (moved to the end when present), keeping the latest `cap`. */
export function pushLatest(list: string[], value: string, cap: number): void {
  const at = list.indexOf(value);
  if (at >= 0) list.splice(at, 1);
  list.push(value);
  if (list.length > cap) list.splice(0, list.length - cap);
}
