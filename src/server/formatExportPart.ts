import type { MemoryExport } from "../memory/exportMemories.js";
import { withoutControls } from "../text/controlCharacters.js";
import { CairnError } from "../util/errors.js";
import type { ToolTextBudget } from "./formatToolText.js";

/** Room kept for the header's paging fields (`part`, `rest`) beside the header itself. */
const PART_NOTE_BYTES = 300;

/**
 * One part of an export as the MCP `export` tool returns it: an export file of its own (the header line,
 * then whole memory lines from `offset`), so any part imports by itself. When the rest does not fit the
 * client's budget the header says which memories this part holds and the offset of the next part.
 * A replacement link between memories of two different parts is not restored by importing them.
 */
export function formatExportPart(exported: MemoryExport, offset: number, budget: ToolTextBudget): string {
  const total = exported.memories.length;
  const lines = exported.memories.slice(offset).map(jsonLine);
  const header = (count: number, cut: boolean) =>
    jsonLine({
      ...exported.header,
      count,
      ...(cut || offset > 0 ? { part: { from: offset, to: offset + count, of: total } } : {}),
      ...(cut ? { rest: `call export again with offset ${offset + count} for the rest` } : {}),
    });
  let bytes = Buffer.byteLength(header(total, true)) + PART_NOTE_BYTES;
  let count = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    // The header and each memory take one line; the budget's lines include the one a cut would add.
    if (bytes + size > budget.bytes || count + 2 > budget.lines) break;
    bytes += size;
    count++;
  }
  const cut = count < lines.length;
  if (cut && count === 0) {
    const first = exported.memories[offset];
    throw new CairnError(
      "bad_input",
      `memory #${first?.id}'s export line alone is longer than one tool result of this client holds: export it with 'cairn export' on the command line`,
    );
  }
  return [header(count, cut), ...lines.slice(0, count)].join("\n");
}

/**
 * One JSON line, its control and direction characters written as `\u` escapes (a store written before
 * remember replaced them may hold some): the tool result's guard (`withoutControls`) then has nothing to
 * replace, so the part measured here is the part sent, never cut again by the guard.
 */
function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(/[^\u0000-\u007e]/g, (char) =>
    withoutControls(char) === char ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
