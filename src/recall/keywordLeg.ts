import { stem } from "../text/stem.js";
import { calibrateBm25, idealBm25 } from "./calibrate.js";
import { categoryMatch } from "./categoryMatch.js";
import { buildFtsQuery, type FtsQuery } from "./ftsQuery.js";
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
 * The forms of the spellings' terms that some memory of the scopes contains, probed once for all
 * spellings (one FTS existence probe per form). Only forms the store holds somewhere are probed;
 * `undefined` when store-wide counts are exact already (an unrestricted recall).
 */
function formsFoundInScopes(
  deps: RecallDeps,
  input: { queries: FtsQuery[]; frequencies: Map<string, number>; scopes: string[] | "all"; concepts: number },
): Set<string> | undefined {
  const { frequencies, scopes } = input;
  if (scopes === "all") return undefined;
  const seen = (form: string) => form.split(" ").some((word) => (frequencies.get(stem(word)) ?? 0) > 0);
  const forms = new Set(input.queries.flatMap((q) => q.forms.flat()).filter(seen));
  return deps.search.termsFoundIn([...forms], {
    scopes,
    context: deps.config.contextIndex,
    concepts: input.concepts,
    terms: deps.config.searchTerms.weight,
  });
}

/**
 * The frequencies for one spelling's ideal score with every query term none of whose forms a memory
 * of the scopes contains set to 0, so the ideal counts it as the rarest word (idealBm25's
 * `unseenFrequency` 1). The store-wide frequency says how distinctive a word is; a word the memories
 * in reach never say is information the query asks for and no memory has, and it lowers every score
 * instead of dropping out ("how do I run the profiler?" over memories that never mention a profiler
 * is a weak match for "run", not a perfect one).
 */
function withUnfoundAsRare(fts: FtsQuery, frequencies: Map<string, number>, found: Set<string>): Map<string, number> {
  const out = new Map(frequencies);
  fts.weightedTerms.forEach(({ term }, i) => {
    if (fts.forms[i]!.some((form) => found.has(form))) return;
    for (const word of term.split(" ")) out.set(stem(word), 0);
  });
  return out;
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
  // Frequencies in the columns this search matches, as bm25() counts them for it.
  const columns = {
    context: config.contextIndex,
    concepts: config.conceptIndex.weight,
    terms: config.searchTerms.weight,
  };
  const frequencies = search.documentFrequencies(named.stems, columns);
  const query = withinPostingBudget(named, frequencies, config.postingBudget);
  const spellings = config.codeVocabulary ? respellings(query) : [{ query, alternatives: [], forms: [] }];
  // The ideals weigh every form by its IDF: the frequencies of the words the respellings added.
  const formStems = new Set(spellings.flatMap((r) => r.forms.flatMap((form) => form.split(" ").map(stem))));
  for (const [term, df] of search.documentFrequencies(
    [...formStems].filter((s) => !frequencies.has(s)),
    columns,
  ))
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
  // Each spelling's ideal: with `unfoundWords`, a word no memory in reach says counts as the rarest,
  // so a spelling is measured against its own ideal ("e2e" unfound while "end to end" is found must
  // not lower the memories the second finds). Without it an unseen word drops out of the ideal, and
  // every spelling is measured against the highest ideal of theirs, so that a memory matching only
  // the words the spellings share scores the same in each.
  const timeIdeal = timeTerms.map((term) => ({ term, weight: timeWeight }));
  const found = config.unfoundWords
    ? formsFoundInScopes(deps, { queries: ftsQueries, frequencies, scopes, concepts: concept.weight })
    : undefined;
  const ideals = ftsQueries.map((q) =>
    idealBm25(
      [...q.weightedTerms, ...timeIdeal],
      found ? withUnfoundAsRare(q, frequencies, found) : frequencies,
      corpusSize,
      config.unfoundWords ? 1 : undefined,
    ),
  );
  const highest = Math.max(...ideals);
  const keyword = new Map<number, number>();
  ftsQueries.forEach((spelled, i) => {
    const ideal = config.unfoundWords ? ideals[i]! : highest;
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
  });
  const hint =
    config.hints.enabled && fts.match !== ""
      ? hintLeg(deps, { fts, frequencies, corpusSize, scopes })
      : new Map<number, number>();
  return { keyword, hint };
}
