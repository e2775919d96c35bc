import type { Stage1Output } from "../phase1/types.js";
import { sectionItems } from "./rawMemorySections.js";

/** A section heading of a raw memory under which a session records what it left unfinished. */
const OPEN_WORK_HEADING =
  /^#{2,4}\s+(?:open (?:work|loops|tasks|items)|unfinished(?: work)?|pending(?: work| tasks)?|next steps|left to do|still to do|to ?do|state at (?:the )?end)\b/i;

/** A statement labelled as open work ("Open work: ...", "Open work (at the session's compaction): ..."). */
const OPEN_WORK_LABEL = /^\s*open work\b[^:\n]{0,60}:\s*/i;

/** At most this many items from one session: a summary lists open work, it does not copy a plan. */
const PER_SESSION = 5;

/** Whether a fact is labelled as open work: it goes under open work, not among the project's facts. */
export function isOpenWork(statement: string): boolean {
  return OPEN_WORK_LABEL.test(statement);
}

/**
 * What a session left open: the list items (one line each, continuation lines joined) of every
 * section of its raw memory whose heading names open work ("## Open work", "## Pending tasks",
 * "## Next steps"), then its facts labelled as open work, each once (a line keeps its label: it is
 * read alone too, quoted or cited). Stage 1,
 * offline or a model, writes them so; phase 2 reads them rather than guess from prose.
 */
export function openWorkOf(output: Pick<Stage1Output, "rawMemory" | "facts">): string[] {
  const items = sectionItems(output.rawMemory, OPEN_WORK_HEADING);
  for (const fact of output.facts) if (isOpenWork(fact.content)) items.push(fact.content);
  // Once each: the same item told in the raw memory and as a fact, labelled or not, is one item.
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const text = item.replace(/\s+/g, " ").trim();
    const key = text.replace(OPEN_WORK_LABEL, "").toLowerCase();
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out.slice(0, PER_SESSION);
}
