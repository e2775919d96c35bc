import { withoutControls } from "../text/controlCharacters.js";
import { type ToolTextBudget, toolTextCut } from "./formatToolText.js";

/** What `Cairn.readMemory` hands back: the file from `offset` on, and the whole file's length. */
export interface ReadPart {
  content: string;
  offset: number;
  length: number;
}

/**
 * One part of a memory file as the MCP `read` tool returns it. Control characters are replaced before
 * the cut, so the part measured is the part sent (a replaced escape is 3 bytes, not 1, and a second
 * cut would drop the paging note); the next offset is counted in the file's own characters.
 */
export function formatReadPart(part: ReadPart, budget: ToolTextBudget): string {
  const text = withoutControls(part.content);
  const shown = toolTextCut(text, budget);
  if (shown === undefined) return text;
  const next = part.offset + fileCharacters(part.content, shown);
  return `${text.slice(0, shown)}\n\n[part: characters ${part.offset} to ${next} of ${part.length}; call read with offset ${next} for the rest]`;
}

/**
 * How many characters of `raw` the first `shown` characters of `withoutControls(raw)` stand for:
 * the same number, plus one for each Windows line end (`\r\n`, shown as `\n`) before that point.
 */
function fileCharacters(raw: string, shown: number): number {
  let collapsed = 0;
  for (let at = raw.indexOf("\r\n"); at >= 0 && at - collapsed < shown; at = raw.indexOf("\r\n", at + 2)) collapsed++;
  return shown + collapsed;
}
