import { stem } from "../text/stem.js";
import { calibrateBm25, idealBm25 } from "./calibrate.js";
import { categoryMatch } from "./categoryMatch.js";
import { buildFtsQuery } from "./ftsQuery.js";
import { hintLeg } from "./hintLeg.js";
import { keywordQuery } from "./keywordQuery.js";
import { withinPostingBudget } from "./postingBudget.js";
import type { AnalyzedQuery } from "./queryAnalyzer.js";
import type { RecallDeps } from "./recallDeps.js";
import { respellings } from "./vocabularyQuery.js";

export interface KeywordLegResult {
  /** Calibrated keyword score per memory id. */
  keyword: Map<number, number>;
  /** Calibrated hint score per memory id (empty when hints are off). */
  hint: Map<number, number>;
}

/**
 * BM25 over memories_fts (and memory_hints_fts when hints are on), calibrated against the ideal
 * score. The words searched are the query's minus author and date words (keywordQuery), cut to the
 * posting budget, each in every form the code vocabulary knows (vocabularyQuery); the dates it names
 * are searched as calendar tokens in the time columns, and the category words it asks instances of
 * once more in the concept column.
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
  const spellings = config.codeVocabulary ? respellings(query) : [{ query, alternatives: [], forms: [] }];
  // The ideals weigh every form by its IDF: the frequencies of the words the respellings added.
  const formStems = new Set(spellings.flatMap((r) => r.forms.flatMap((form) => form.split(" ").map(stem))));
  for (const [term, df] of search.documentFrequencies([...formStems].filter((s) => !frequencies.has(s))))
    frequencies.set(term, df);
  // A respelling none of whose forms the store holds cannot match anything new: it is not searched.
  const held = (form: string) => form.split(" ").every((word) => (frequencies.get(stem(word)) ?? 0) > 0);
  const ftsQueries = spellings
    .filter((r, i) => i === 0 || r.forms.some(held))
    .map((r) => buildFtsQuery(r.query, r.alternatives));
  const fts = ftsQueries[0]!;
  const timeTerms = timeWeight > 0 ? analyzed.timeTerms : [];
  const timeMatch = timeTerms.join(" OR ");
  if (fts.match === "" && timeMatch === "") return { keyword: new Map(), hint: new Map() };
  const concept = config.conceptIndex;
  const conceptMatch =
    concept.weight > 0 && concept.categoryRepeat > 0 ? categoryMatch(query.terms, concept, analyzed.kindOf) : "";
  // A date the query names counts in the ideal at its column's weight: matching it is part of the
  // query's information, but a weak part next to its words.
  for (const [term, df] of search.documentFrequencies(timeTerms)) frequencies.set(term, df);
  // Every spelling is measured against one ideal, the highest of theirs (a spelling's words may be
  // unseen, "e2e" in a store that only says "end-to-end"): a memory matching only the words the
  // spellings share then scores the same in each.
  const timeIdeal = timeTerms.map((term) => ({ term, weight: timeWeight }));
  const ideal = Math.max(
    ...ftsQueries.map((q) => idealBm25([...q.weightedTerms, ...timeIdeal], frequencies, corpusSize)),
  );
  const keyword = new Map<number, number>();
  for (const spelled of ftsQueries) {
    const hits = search.keyword({
      match: spelled.match,
      scopes,
      limit: config.candidatePool,
      context: config.contextIndex,
      timeMatch,
      time,
      concepts: concept.weight,
      conceptMatch,
      terms: config.searchTerms.weight,
    });
    for (const h of hits) keyword.set(h.id, Math.max(keyword.get(h.id) ?? 0, calibrateBm25(h.raw, ideal)));
  }
  const hint =
    config.hints.enabled && fts.match !== ""
      ? hintLeg(deps, { fts, frequencies, corpusSize, scopes })
      : new Map<number, number>();
  return { keyword, hint };
}
