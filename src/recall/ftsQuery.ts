import type { AnalyzedQuery } from "./queryAnalyzer.js";

export interface FtsQuery {
  /** The MATCH expression, or "" when the query has nothing to match. */
  match: string;
  /**
   * Each query phrase with its multiplicity, for the calibration's ideal score. A term searched in
   * several forms is one entry, its forms' words joined: the ideal counts it once, at its best form.
   */
  weightedTerms: { term: string; weight: number }[];
  /** The forms of `weightedTerms[i]` as searched, each a word or a phrase. */
  forms: string[][];
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * Builds an OR query: every content term may match, and BM25 rewards documents matching more and
 * rarer terms. (An implicit AND for short queries, as some peers use, returns nothing as soon as one
 * word differs.) Explicit "phrases" are added as phrase matches. `alternatives[i]` are other forms of
 * `query.terms[i]` (src/recall/vocabularyQuery.ts), matched as well.
 */
export function buildFtsQuery(query: AnalyzedQuery, alternatives: string[][] = []): FtsQuery {
  const parts: string[] = [];
  const weightedTerms: FtsQuery["weightedTerms"] = [];
  const termForms: string[][] = [];
  query.terms.forEach((term, i) => {
    const forms = [term, ...(alternatives[i] ?? [])];
    for (const form of forms) parts.push(quote(form));
    weightedTerms.push({ term: forms.join(" "), weight: 1 });
    termForms.push(forms);
  });
  for (const phrase of query.phrases) {
    parts.push(quote(phrase));
    weightedTerms.push({ term: phrase, weight: 1 });
    termForms.push([phrase]);
  }
  return { match: parts.join(" OR "), weightedTerms, forms: termForms };
}
