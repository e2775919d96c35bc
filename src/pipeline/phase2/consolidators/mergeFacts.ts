import type { ExtractedFact, Stage1Output } from "../../phase1/types.js";

export interface SupportedStatement {
  text: string;
  /** Sessions that stated it, most recent first. */
  sessions: string[];
  projects: Set<string>;
  type: ExtractedFact["type"];
}

/**
 * Merges the facts of many sessions: the same statement (case, punctuation and spacing aside) seen in
 * several sessions becomes one entry with all its sources, ranked by how many sessions support it, then
 * by how recently it was said.
 */
export function mergeFacts(
  outputs: readonly Stage1Output[],
  types: ReadonlyArray<ExtractedFact["type"]>,
): SupportedStatement[] {
  const merged = new Map<string, SupportedStatement>();
  const byRecency = [...outputs].sort((a, b) => b.sourceUpdatedAt - a.sourceUpdatedAt);
  for (const output of byRecency) {
    for (const fact of output.facts) {
      if (!types.includes(fact.type)) continue;
      const key = normalizeStatement(fact.content);
      if (!key) continue;
      const entry = merged.get(key) ?? {
        text: fact.content.trim(),
        sessions: [],
        projects: new Set(),
        type: fact.type,
      };
      if (!entry.sessions.includes(output.sessionId)) entry.sessions.push(output.sessionId);
      entry.projects.add(output.projectKey ?? "");
      merged.set(key, entry);
    }
  }
  // Between statements of equal support, the one said most recently first (the insertion order; the
  // sort is stable): the sections are cut to a length, and what is cut should be the oldest word.
  return [...merged.values()].sort((a, b) => b.sessions.length - a.sessions.length);
}

/** The form two statements share when they say the same thing: case, punctuation and spacing aside. */
export function normalizeStatement(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`"'\u201c\u201d\u2018\u2019]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}
