import { type ClaudeLine, parentRef } from "./claudeLine.js";
import { startsBranch } from "./startsBranch.js";

/**
 * The tip of the conversation as a resumed read needs it: the uuids written since the last line that
 * opened a step (that line included), and the assistant message being written. A new line that hangs
 * anywhere else rewrites history, which a resumed read cannot express.
 */
export interface BranchTail {
  uuids: string[];
  messageId?: string;
}

// A run of continuation lines is short (parallel calls, their results, hook lines); the cap only
// bounds the stored state. Dropping the oldest can cause a needless full read, never a wrong one.
const MAX_TAIL = 256;

/** Whether `line` continues the tip; lines without a uuid, and new roots, always do. */
export function continuesTail(tail: BranchTail, line: ClaudeLine): boolean {
  if (line.uuid === undefined || tail.uuids.length === 0) return true;
  const parent = parentRef(line);
  return parent === undefined || tail.uuids.includes(parent);
}

export function advanceTail(tail: BranchTail, line: ClaudeLine): void {
  if (line.uuid === undefined) return;
  const current = new Set(tail.messageId === undefined ? [] : [tail.messageId]);
  if (startsBranch(line, current)) tail.uuids = [line.uuid];
  else {
    tail.uuids.push(line.uuid);
    if (tail.uuids.length > MAX_TAIL) tail.uuids.shift();
  }
  if (line.type === "assistant" && line.messageId !== undefined) tail.messageId = line.messageId;
}
