import type { AnalyzedQuery } from "./queryAnalyzer.js";

export interface FtsQuery {
  /** The MATCH expression, or "" when the query has nothing to match. */
  match: string;
  /** Each query phrase with its multiplicity, for the calibration's ideal score. */
  weightedTerms: { term: string; weight: number }[];
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * Builds an OR query: every content term may match, and BM25 rewards documents matching more and
 * rarer terms. (An implicit AND for short queries, as some peers use, returns nothing as soon as one
 * word differs.) Explicit "phrases" are added as phrase matches.
 */
export function buildFtsQuery(query: AnalyzedQuery): FtsQuery {
  const parts: string[] = [];
  const weightedTerms: FtsQuery["weightedTerms"] = [];
  for (const term of query.terms) {
    parts.push(quote(term));
    weightedTerms.push({ term, weight: 1 });
  }
  for (const phrase of query.phrases) {
    parts.push(quote(phrase));
    weightedTerms.push({ term: phrase, weight: 1 });
  }
  return { match: parts.join(" OR "), weightedTerms };
}
