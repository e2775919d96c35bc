import { type ClaudeLine, isToolResultOnly } from "./claudeLine.js";

/**
 * Whether a line opens a new step of the conversation (a user prompt, a new assistant response, a
 * compaction) rather than continuing the current one. Continuations hang off earlier lines for
 * mechanical reasons: parallel tool calls are written one block per line, each tool result points at
 * its own tool_use line, and hook/progress lines interleave. A second child of a line that *opens* a
 * step is what an edit, rewind or regenerate looks like.
 */
export function startsBranch(line: ClaudeLine, currentMessageIds: ReadonlySet<string>): boolean {
  if (line.type === "user") return !isToolResultOnly(line);
  if (line.type === "assistant") return line.messageId === undefined || !currentMessageIds.has(line.messageId);
  return line.type === "system" && line.subtype === "compact_boundary";
}
