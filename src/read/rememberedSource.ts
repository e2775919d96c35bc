import { isAgentWritten } from "../memory/memoryAuthor.js";
import type { Doubt } from "../memory/types.js";
import type { MemoryRecord } from "../store/types/memoryRecord.js";
import type { SummarySource } from "./fitInjection.js";
import { singleLine } from "./quoteMemory.js";
import { type RememberedGroup, saidAt } from "./rememberedMemories.js";

/** A remembered memory is one line; a longer text is shortened, and its id finds the whole of it. */
const MAX_MEMORY_CHARS = 240;

/** How each memory's line starts: the id is what the agent cites, recalls or names to forget. */
export const REMEMBERED_LINE_START = "- #";

/** Above the memories an agent stored during a session: the guidance says what they are. */
export const AGENT_HEADING = "#### Saved by an agent (not confirmed by the user)";

/** Where the model finds remembered memories that were not listed. */
const FIND_THE_REST = "cairn recall (or the cairn MCP recall tool) finds the rest";

/**
 * A group of remembered memories as a source to fit: one neutralized line per memory, newest first,
 * `- #<id> (<date>[, <type>]) <text>`, a doubted one ending in a pointer to its likely replacement,
 * the ones an agent stored after the user's under `AGENT_HEADING`, and a last line saying so when
 * older ones were left out.
 */
export function rememberedSource(
  group: RememberedGroup,
  title: string,
  doubted: ReadonlyMap<number, Doubt>,
): SummarySource | undefined {
  if (group.memories.length === 0) return undefined;
  const line = (memory: MemoryRecord) => {
    const doubt = doubted.get(memory.id);
    return doubt ? `${rememberedLine(memory)} ${doubtMark(doubt)}` : rememberedLine(memory);
  };
  const byAgent = group.memories.filter((memory) => isAgentWritten(memory.who));
  const lines = group.memories.filter((memory) => !isAgentWritten(memory.who)).map(line);
  // Below the user's own, under a heading of cairn's (no memory line starts with "#"), so no line an
  // agent stored passes for the user's statement, and the fitting cuts them first.
  if (byAgent.length > 0) lines.push(AGENT_HEADING, ...byAgent.map(line));
  if (group.more) lines.push(`[only the ${group.memories.length} newest are listed; recall finds older ones]`);
  return { title, url: "", rest: FIND_THE_REST, text: lines.join("\n") };
}

export function rememberedLine(memory: Pick<MemoryRecord, "id" | "type" | "content" | "occurredAt" | "createdAt">) {
  const type = memory.type === "fact" ? "" : `, ${singleLine(memory.type, 40)}`;
  return `${REMEMBERED_LINE_START}${memory.id} (${dayOf(saidAt(memory))}${type}) ${singleLine(memory.content, MAX_MEMORY_CHARS)}`;
}

/** What a doubted memory's line ends with: which memory may have replaced it, and where a person decides. */
export function doubtMark(doubt: Doubt): string {
  return `[may be out of date: #${doubt.newer} is newer (review flag #${doubt.flag})]`;
}

/** How many memories `text` (a source's text) lists on lines kept whole within its first `keptChars`. */
export function keptMemoryLines(text: string, keptChars: number): number {
  let kept = 0;
  let start = 0;
  for (const line of text.split("\n")) {
    const end = start + line.length;
    if (end > keptChars) break;
    if (line.startsWith(REMEMBERED_LINE_START)) kept++;
    start = end + 1;
  }
  return kept;
}

/** The UTC day of an epoch-ms time; a time out of the date range (a caller's mistake) shows as "undated". */
function dayOf(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? "undated" : date.toISOString().slice(0, 10);
}

/** The ids of the remembered memories a block lists, in the order the agent reads them. */
export function listedMemoryIds(block: string): number[] {
  const ids: number[] = [];
  for (const line of block.split("\n")) {
    if (!line.startsWith(REMEMBERED_LINE_START)) continue;
    const id = Number(/^\d{1,15}/.exec(line.slice(REMEMBERED_LINE_START.length))?.[0]);
    if (Number.isSafeInteger(id) && id > 0 && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
