/**
 * The sections of a memory summary (memory_summary.md) that describe the memory instead of holding
 * knowledge: who worked how much, and which files hold what. Offline consolidation writes them under
 * these headings and the consolidation prompts ask a model for the same ones, so the read path can
 * tell a summary that knows something from one that only says memory exists.
 */
export const SUMMARY_INDEX_SECTIONS: readonly string[] = ["Profile", "What is in memory"];

const INDEX = new Set(SUMMARY_INDEX_SECTIONS.map((title) => title.toLowerCase()));

/**
 * Whether a summary (without its version line) holds any knowledge: a non-empty line outside the
 * index sections. A title (`# ...`) opens no section; text before the first section, and any section
 * under another heading, counts as knowledge, so a summary in a shape cairn did not write is never
 * taken for an empty one.
 */
export function summaryHoldsKnowledge(summary: string): boolean {
  let section: string | null = null;
  for (const line of summary.split("\n")) {
    const heading = /^\s*(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      section = (heading[1] ?? "").length > 1 ? (heading[2] ?? "").toLowerCase() : null;
      continue;
    }
    if (line.trim() === "") continue;
    if (section === null || !INDEX.has(section)) return true;
  }
  return false;
}
