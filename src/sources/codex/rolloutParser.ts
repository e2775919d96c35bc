import { asRecord, asString } from "../jsonl.js";
import { compactedSummary } from "./compactedSummary.js";
import { dropUserTurns } from "./dropUserTurns.js";
import { addExecEnd, handleResponseItem } from "./responseItems.js";
import type { RolloutLine } from "./rolloutLine.js";
import { pushItem, type RolloutParse } from "./rolloutParse.js";
import { isEventMessage } from "./rolloutState.js";
import { readSessionMeta } from "./sessionMeta.js";

type LineHandler = (parse: RolloutParse, line: RolloutLine) => boolean;

/**
 * Walks rollout lines in order. Every handler returns whether the record was used; the rest
 * (token counts, reasoning, task events, types added by newer Codex versions) is counted as skipped.
 * Stops early when a resumed read meets a record that rewrites earlier history.
 */
export function parseRolloutLines(parse: RolloutParse, lines: readonly RolloutLine[]): void {
  for (const line of lines) {
    parse.firstTs ??= line.ts;
    // Legacy items carry no time: then the last line has none and the file's mtime stands in.
    parse.lastTs = line.ts;
    const handler = lineHandlers[line.type];
    if (!(handler?.(parse, line) ?? false)) parse.skipped += 1;
    if (parse.needsFullRead) return;
  }
}

const lineHandlers: Record<string, LineHandler> = {
  session_meta: handleSessionMeta,
  turn_context: (parse, line) => {
    const cwd = asString(line.payload.cwd);
    if (cwd) parse.state.cwd = cwd;
    return true;
  },
  response_item: handleResponseItem,
  event_msg: handleEvent,
  compacted: (parse, line) => {
    // `replacement_history` repeats earlier items for the model; only the summary is new. A remote
    // compaction's summary is encrypted: the line is read, and yields no item.
    pushItem(parse, line, { role: "compaction", text: compactedSummary(line.payload) });
    return true;
  },
};

function handleSessionMeta(parse: RolloutParse, line: RolloutLine): boolean {
  // A later session_meta (a resumed or forked rollout) does not change who the session is.
  if (parse.state.id !== undefined) return false;
  const meta = readSessionMeta(line.payload, line.ts);
  Object.assign(parse.state, meta);
  return true;
}

function handleEvent(parse: RolloutParse, line: RolloutLine): boolean {
  const type = line.payload.type;
  if (type === "user_message" || type === "agent_message") return handleEventMessage(parse, line);
  if (type === "thread_rolled_back") return handleRollback(parse, line);
  if (type === "exec_command_end") return addExecEnd(parse, line);
  return false;
}

function handleEventMessage(parse: RolloutParse, line: RolloutLine): boolean {
  const user = isEventMessage(line, "user_message");
  const fromEvents = user ? parse.state.userFromEvents : parse.state.assistantFromEvents;
  if (!fromEvents) {
    // Earlier lines were read from response items; this file now has cleaner event text for them.
    parse.needsFullRead = parse.resumed;
    return false;
  }
  pushItem(parse, line, { role: user ? "user" : "assistant", text: asString(line.payload.message) ?? "" });
  return true;
}

function handleRollback(parse: RolloutParse, line: RolloutLine): boolean {
  if (parse.resumed) {
    parse.needsFullRead = true;
    return true;
  }
  const turns = asRecord(line.payload)?.num_turns;
  dropUserTurns(parse.items, typeof turns === "number" ? turns : 0);
  return true;
}
