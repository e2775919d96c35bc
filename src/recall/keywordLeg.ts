import { calibrateBm25, idealBm25 } from "./calibrate.js";
import { feedbackTerms } from "./feedbackTerms.js";
import { buildFtsQuery, type FtsQuery } from "./ftsQuery.js";
import type { AnalyzedQuery } from "./queryAnalyzer.js";
import type { RecallDeps } from "./recallDeps.js";

export interface KeywordLegResult {
  /** Calibrated keyword score per memory id. */
  keyword: Map<number, number>;
  /** Calibrated hint score per memory id (empty when hints are off). */
  hint: Map<number, number>;
}

/** The query without the words that name an author (unless nothing else is left). */
function withoutAuthors(analyzed: AnalyzedQuery, authorWords: string[]): AnalyzedQuery {
  const keep = analyzed.terms.map((t) => !authorWords.includes(t));
  if (!keep.some(Boolean)) return analyzed;
  return {
    ...analyzed,
    terms: analyzed.terms.filter((_, i) => keep[i]),
    stems: analyzed.stems.filter((_, i) => keep[i]),
  };
}

/**
 * Words in more than `ratio` of all memories, and in more than `minDocs`, are dropped from the keyword
 * query (unless every word is): their IDF is near zero, so they barely move a ranking, yet their long
 * posting lists are what makes a keyword query slow on a large store. Small stores keep every word.
 */
function withoutCommonTerms(
  query: AnalyzedQuery,
  frequencies: Map<string, number>,
  corpusSize: number,
  limits: { ratio: number; minDocs: number },
): AnalyzedQuery {
  const cap = Math.max(limits.ratio * corpusSize, limits.minDocs);
  const keep = query.stems.map((s) => (frequencies.get(s) ?? 0) <= cap);
  if (!keep.some(Boolean) || keep.every(Boolean)) return query;
  return { ...query, terms: query.terms.filter((_, i) => keep[i]), stems: query.stems.filter((_, i) => keep[i]) };
}

/**
 * BM25 over memories_fts (and memory_hints_fts when hints are on), calibrated against the ideal score.
 * Words naming an author are left out: the author prior handles them, and as keywords they mostly
 * match the other party addressing that author by name. With feedback on, a second pass adds the
 * words the first pass's best hits share, the original words counting `feedback.queryWeight` times.
 */
export function keywordLeg(
  deps: RecallDeps,
  analyzed: AnalyzedQuery,
  scopes: string[] | "all",
  authorWords: string[],
): KeywordLegResult {
  const { config, search } = deps;
  const corpusSize = Math.max(1, search.corpusSizeEstimate());
  const named = withoutAuthors(analyzed, authorWords);
  const frequencies = search.documentFrequencies(named.stems);
  const query = withoutCommonTerms(named, frequencies, corpusSize, {
    ratio: config.commonTermRatio,
    minDocs: config.commonTermMinDocs,
  });
  let fts = buildFtsQuery(query, config.entityWeight);
  if (fts.match === "") return { keyword: new Map(), hint: new Map() };
  let hits = search.keyword(fts.match, scopes, config.candidatePool);
  if (config.feedback.enabled && hits.length > 0) {
    const top = deps.memories.getLive(
      hits.slice(0, config.feedback.docs).map((h) => h.id),
      { scopes },
    );
    const extra = feedbackTerms({
      topContents: top.map((r) => r.content),
      exclude: new Set([...analyzed.stems, ...authorWords]),
      documentFrequency: (s) => search.documentFrequencies([s]).get(s) ?? 0,
      corpusSize,
      limit: config.feedback.terms,
    });
    if (extra.length > 0) {
      for (const [term, df] of search.documentFrequencies(extra)) frequencies.set(term, df);
      fts = expandFts(fts, extra, config.feedback.queryWeight);
      hits = search.keyword(fts.match, scopes, config.candidatePool);
    }
  }
  const ideal = idealBm25(fts.weightedTerms, frequencies, corpusSize);
  const keyword = new Map(hits.map((h) => [h.id, calibrateBm25(h.raw, ideal)]));
  const hint = new Map<number, number>();
  if (config.hints.enabled) {
    for (const h of search.hints(fts.match, scopes, config.candidatePool)) hint.set(h.id, calibrateBm25(h.raw, ideal));
  }
  return { keyword, hint };
}

function expandFts(fts: FtsQuery, extra: string[], queryWeight: number): FtsQuery {
  const parts: string[] = [];
  const weightedTerms: FtsQuery["weightedTerms"] = [];
  for (const { term, weight } of fts.weightedTerms) {
    for (let i = 0; i < weight * queryWeight; i++) parts.push(`"${term.replace(/"/g, '""')}"`);
    weightedTerms.push({ term, weight: weight * queryWeight });
  }
  for (const term of extra) {
    parts.push(`"${term}"`);
    weightedTerms.push({ term, weight: 1 });
  }
  return { match: parts.join(" OR "), weightedTerms };
}
