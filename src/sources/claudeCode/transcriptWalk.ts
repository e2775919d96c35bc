import type { SessionItem } from "../types.js";
import { abandonedLines } from "./abandonedLines.js";
import { advanceTail, continuesTail } from "./branchTail.js";
import type { ClaudeLine } from "./claudeLine.js";
import type { ClaudeState } from "./claudeState.js";
import { addLineItems, type ItemSink } from "./lineItems.js";

export interface WalkResult {
  items: SessionItem[];
  skipped: number;
  /** A resumed read met a line that branches off earlier history. */
  rewritten: boolean;
}

/**
 * Walks a transcript's lines into items and keeps the state current. A whole-file read drops the
 * branches the user left; a resumed read cannot see them, so it stops at the first line that does
 * not continue the tip and asks for a whole-file read.
 */
export function walkTranscript(walk: {
  file: string;
  state: ClaudeState;
  lines: readonly ClaudeLine[];
  resumed: boolean;
}): WalkResult {
  const { file, state, lines, resumed } = walk;
  const sink: ItemSink = { file, items: [], tools: state.tools, keys: new Set(state.messageKeys) };
  // Pre-2.0 transcripts wrote subagent lines inline; those are not the main conversation.
  const own = state.subagent ? lines : lines.filter((line) => !line.isSidechain);
  let skipped = lines.length - own.length;
  const abandoned = resumed ? new Set<number>() : abandonedLines(own);
  for (const line of own) {
    if (resumed && !continuesTail(state.tail, line)) return { items: [], skipped: 0, rewritten: true };
    noteSessionFields(state, line);
    if (abandoned.has(line.line)) {
      skipped += 1;
      continue;
    }
    advanceTail(state.tail, line);
    if (addLineItems(sink, line) === 0) skipped += 1;
  }
  const current = state.tail.messageId === undefined ? undefined : `${state.tail.messageId}:`;
  state.messageKeys = current === undefined ? [] : [...sink.keys].filter((key) => key.startsWith(current));
  return { items: sink.items, skipped, rewritten: false };
}

function noteSessionFields(state: ClaudeState, line: ClaudeLine): void {
  // cwd is where the session was started (never decoded from the folder name); the branch can move.
  if (state.cwd === null && line.cwd !== undefined) state.cwd = line.cwd;
  if (line.gitBranch !== undefined) state.gitBranch = line.gitBranch;
  if (line.ts === undefined) return;
  state.startedAt = Math.min(state.startedAt ?? line.ts, line.ts);
  state.updatedAt = Math.max(state.updatedAt ?? line.ts, line.ts);
}
