import type { Candidate } from "./candidate.js";
import { contentStems } from "./tokenize.js";

/**
 * Share of the query's information a text contains: the IDF-weighted fraction of distinct query
 * stems that occur in it. Unlike BM25 it ignores repetition and document length, so it separates
 * near ties between a memory that repeats one query word and one that covers several.
 */
export function queryCoverage(text: string, queryStems: string[], idfOf: (stem: string) => number): number {
  const unique = [...new Set(queryStems)];
  const total = unique.reduce((sum, s) => sum + idfOf(s), 0);
  if (total <= 0) return 0;
  const present = new Set(contentStems(text));
  return unique.reduce((sum, s) => sum + (present.has(s) ? idfOf(s) : 0), 0) / total;
}

/**
 * Lexical rerank of the leading `topN` candidates (their content loaded): a convex blend
 * `(1 - weight) * score + weight * coverage`, so scores stay in [0, 1] and a small weight only
 * reorders near ties.
 */
export function applyCoverageRerank(
  ranked: Candidate[],
  queryStems: string[],
  idfOf: (stem: string) => number,
  options: { topN: number; weight: number },
): void {
  if (options.weight <= 0 || queryStems.length === 0) return;
  for (const c of ranked.slice(0, options.topN)) {
    const coverage = queryCoverage(c.content ?? "", queryStems, idfOf);
    c.score = (1 - options.weight) * c.score + options.weight * coverage;
  }
}
