import { pluralCategories, shippedCategoryBreadth } from "../text/lexicon/concepts.js";
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
  return withoutWords(analyzed, authorWords);
}

/** The query without these words (unless nothing else is left). */
function withoutWords(analyzed: AnalyzedQuery, drop: string[]): AnalyzedQuery {
  const keep = analyzed.terms.map((t) => !drop.includes(t));
  if (!keep.some(Boolean)) return analyzed;
  return {
    ...analyzed,
    terms: analyzed.terms.filter((_, i) => keep[i]),
    stems: analyzed.stems.filter((_, i) => keep[i]),
  };
}

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
  const timeWeight = Math.max(config.timeIndex.occurred, config.timeIndex.mentioned);
  const named = withoutAuthors(
    config.timeIndex.replaceWords && timeWeight > 0 && analyzed.timeTerms.length > 0
      ? withoutWords(analyzed, analyzed.timeWords)
      : analyzed,
    authorWords,
  );
  const frequencies = search.documentFrequencies(named.stems);
  const query = withinPostingBudget(named, frequencies, config.postingBudget);
  let fts = buildFtsQuery(query, config.entityWeight);
  const time = config.timeIndex;
  const timeTerms = timeWeight > 0 ? analyzed.timeTerms : [];
  const timeMatch = timeTerms.join(" OR ");
  if (fts.match === "" && timeMatch === "") return { keyword: new Map(), hint: new Map() };
  const concept = config.conceptIndex;
  const conceptMatch =
    concept.weight > 0 && concept.categoryRepeat > 0 ? categoryMatch(query.terms, concept, analyzed.kindOf) : "";
  const searchKeyword = (match: string) =>
    search.keyword(
      match,
      scopes,
      config.candidatePool,
      config.contextIndex,
      timeMatch,
      time,
      config.conceptIndex.weight,
      conceptMatch,
    );
  let hits = searchKeyword(fts.match);
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
      hits = searchKeyword(fts.match);
    }
  }
  // A date the query names counts in the ideal at its column's weight: matching it is part of the
  // query's information, but a weak part next to its words.
  for (const [term, df] of search.documentFrequencies(timeTerms)) frequencies.set(term, df);
  const ideal = idealBm25(
    [...fts.weightedTerms, ...timeTerms.map((term) => ({ term, weight: timeWeight }))],
    frequencies,
    corpusSize,
  );
  const keyword = new Map(hits.map((h) => [h.id, calibrateBm25(h.raw, ideal)]));
  const hint = new Map<number, number>();
  if (config.hints.enabled && fts.match !== "") {
    // Hint words need not occur in any memory: count them as rare rather than leave them out.
    const hintIdeal = idealBm25(fts.weightedTerms, frequencies, corpusSize, 1);
    for (const h of search.hints(fts.match, scopes, config.candidatePool))
      hint.set(h.id, calibrateBm25(h.raw, hintIdeal));
  }
  return { keyword, hint };
}

/**
 * The concept-column clause of the category words a query asks for instances of: its plural category
 * words ("what activities ...") and the nouns it asks for a kind of ("what kind of art ...", when
 * they are categories and still among its terms), each repeated `categoryRepeat` times; "" when the
 * query has none.
 */
export function categoryMatch(
  terms: string[],
  concept: RecallDeps["config"]["conceptIndex"],
  kindOf: string[] = [],
): string {
  const breadth = shippedCategoryBreadth(concept.depth);
  const plural = pluralCategories(terms, breadth, concept.categoryMinBreadth).map((p) => p.word);
  const kinds = kindOf.filter(
    (w) => terms.includes(w) && !plural.includes(w) && (breadth.get(w) ?? 0) >= concept.categoryMinBreadth,
  );
  return [...plural, ...kinds]
    .flatMap((word) => Array.from({ length: concept.categoryRepeat }, () => `"${word.replace(/"/g, '""')}"`))
    .join(" OR ");
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
