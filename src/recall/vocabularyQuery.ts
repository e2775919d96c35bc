import { phraseVariants, wordVariants } from "../text/codeVocabulary.js";
import { stem } from "../text/stem.js";
import { words } from "../text/tokenize.js";
import { kindsNamed } from "../text/toolKinds.js";
import type { AnalyzedQuery } from "./queryAnalyzer.js";

/** A query to search, with other forms of some of its terms (`alternatives[i]` for `query.terms[i]`). */
export interface Respelling {
  query: AnalyzedQuery;
  alternatives: string[][];
  /** The forms this respelling searches in place of the query's words (none for the query as written). */
  forms: string[];
}

/** `query` with the terms at `drop` left out and `forms` added as one term searched in any of them. */
function respell(query: AnalyzedQuery, drop: (term: string, i: number) => boolean, forms: string[]): Respelling {
  const keep = query.terms.map((t, i) => !drop(t, i));
  const [first = "", ...rest] = forms;
  const terms = [...query.terms.filter((_, i) => keep[i]), first];
  return {
    query: {
      ...query,
      terms,
      stems: [...query.stems.filter((_, i) => keep[i]), first.split(" ").map(stem).join(" ")],
    },
    alternatives: [...terms.slice(0, -1).map(() => []), rest],
    forms,
  };
}

/**
 * The code vocabulary on the query side (src/text/codeVocabulary.ts): the query as written, then
 * once for each term the table knows, the query with that term in its other forms ("e2e" ->
 * "end to end"; "end-to-end tests" -> "e2e tests"; "linter" -> "lint"). The index holds memories as
 * they were written (SQL triggers fill it through SQLite's own tokenizer), so both directions are
 * met here. Each respelling is searched on its own and a memory keeps its best: one OR query over
 * every form would add the BM25 of each form a memory contains, so a memory saying both "db" and
 * "database" would count the word twice. A kind of tool the query names is searched once more as
 * its tools ("which package manager" -> npm, pnpm, yarn ...; src/text/toolKinds.ts).
 */
export function respellings(query: AnalyzedQuery): Respelling[] {
  const out: Respelling[] = [{ query, alternatives: [], forms: [] }];
  query.terms.forEach((term, i) => {
    const forms = wordVariants(term);
    if (forms.length > 0) out.push(respell(query, (_, j) => j === i, forms));
  });
  const written = words(query.raw).map((w) => w.replace(/'s$/, "").replace(/'/g, ""));
  const runs = [
    ...phraseVariants(written).map(({ phrase, variants }) => ({ phrase, forms: variants })),
    ...kindsNamed(written).map(({ phrase, members }) => ({ phrase, forms: members })),
  ];
  for (const { phrase, forms } of runs) {
    const covered = new Set(phrase.split(" "));
    out.push(respell(query, (t) => covered.has(t), forms));
  }
  return out;
}
