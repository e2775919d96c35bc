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
 * word differs.) FTS5 scores each phrase of the expression separately, so repeating a term weights
 * it: entities are repeated `entityWeight` times, explicit phrases are added as phrase matches.
 */
export function buildFtsQuery(query: AnalyzedQuery, entityWeight: number): FtsQuery {
  const parts: string[] = [];
  const weightedTerms: FtsQuery["weightedTerms"] = [];
  for (const term of query.terms) {
    const weight = query.entities.includes(term) ? entityWeight : 1;
    for (let i = 0; i < weight; i++) parts.push(quote(term));
    weightedTerms.push({ term, weight });
  }
  for (const phrase of query.phrases) {
    parts.push(quote(phrase));
    weightedTerms.push({ term: phrase, weight: 1 });
  }
  return { match: parts.join(" OR "), weightedTerms };
}
