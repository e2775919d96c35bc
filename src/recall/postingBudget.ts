import type { AnalyzedQuery } from "./queryAnalyzer.js";

/**
 * Keeps the rarest words while their summed document frequencies fit `budget` (the rarest always
 * stays). FTS5's cost is the length of the posting lists it reads; rare words carry most of the BM25
 * score, so on a large store the common ones cost much and change the top of the ranking little.
 * Small stores never reach the budget and keep every word.
 */
export function withinPostingBudget(
  query: AnalyzedQuery,
  frequencies: Map<string, number>,
  budget: number,
): AnalyzedQuery {
  const order = query.stems.map((s, i) => ({ i, df: frequencies.get(s) ?? 0 })).sort((a, b) => a.df - b.df);
  const keep = new Set<number>();
  let spent = 0;
  for (const { i, df } of order) {
    if (keep.size > 0 && spent + df > budget) break;
    keep.add(i);
    spent += df;
  }
  if (keep.size === query.terms.length) return query;
  return {
    ...query,
    terms: query.terms.filter((_, i) => keep.has(i)),
    stems: query.stems.filter((_, i) => keep.has(i)),
  };
}
