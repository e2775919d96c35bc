import { calibrateBm25, idealBm25 } from "./calibrate.js";
import { categoryMatch } from "./categoryMatch.js";
import { buildFtsQuery } from "./ftsQuery.js";
import { hintLeg } from "./hintLeg.js";
import { keywordQuery } from "./keywordQuery.js";
import { withinPostingBudget } from "./postingBudget.js";
import type { AnalyzedQuery } from "./queryAnalyzer.js";
import type { RecallDeps } from "./recallDeps.js";

export interface KeywordLegResult {
  /** Calibrated keyword score per memory id. */
  keyword: Map<number, number>;
  /** Calibrated hint score per memory id (empty when hints are off). */
  hint: Map<number, number>;
}

/**
 * BM25 over memories_fts (and memory_hints_fts when hints are on), calibrated against the ideal
 * score. The words searched are the query's minus author and date words (keywordQuery), cut to the
 * posting budget; the dates it names are searched as calendar tokens in the time columns, and the
 * category words it asks instances of once more in the concept column.
 */
export function keywordLeg(
  deps: RecallDeps,
  input: { query: AnalyzedQuery; scopes: string[] | "all"; authorWords: string[] },
): KeywordLegResult {
  const { config, search } = deps;
  const { query: analyzed, scopes } = input;
  const corpusSize = Math.max(1, search.corpusSizeEstimate());
  const time = config.timeIndex;
  const timeWeight = Math.max(time.occurred, time.mentioned);
  const named = keywordQuery(analyzed, {
    authorWords: input.authorWords,
    dropTimeWords: time.replaceWords && timeWeight > 0,
  });
  const frequencies = search.documentFrequencies(named.stems);
  const query = withinPostingBudget(named, frequencies, config.postingBudget);
  const fts = buildFtsQuery(query);
  const timeTerms = timeWeight > 0 ? analyzed.timeTerms : [];
  const timeMatch = timeTerms.join(" OR ");
  if (fts.match === "" && timeMatch === "") return { keyword: new Map(), hint: new Map() };
  const concept = config.conceptIndex;
  const conceptMatch =
    concept.weight > 0 && concept.categoryRepeat > 0 ? categoryMatch(query.terms, concept, analyzed.kindOf) : "";
  const hits = search.keyword({
    match: fts.match,
    scopes,
    limit: config.candidatePool,
    context: config.contextIndex,
    timeMatch,
    time,
    concepts: concept.weight,
    conceptMatch,
    terms: config.searchTerms.weight,
  });
  // A date the query names counts in the ideal at its column's weight: matching it is part of the
  // query's information, but a weak part next to its words.
  for (const [term, df] of search.documentFrequencies(timeTerms)) frequencies.set(term, df);
  const ideal = idealBm25(
    [...fts.weightedTerms, ...timeTerms.map((term) => ({ term, weight: timeWeight }))],
    frequencies,
    corpusSize,
  );
  const keyword = new Map(hits.map((h) => [h.id, calibrateBm25(h.raw, ideal)]));
  const hint =
    config.hints.enabled && fts.match !== ""
      ? hintLeg(deps, { fts, frequencies, corpusSize, scopes })
      : new Map<number, number>();
  return { keyword, hint };
}
