import type { AnalyzedQuery } from "./queryAnalyzer.js";

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
 * The words the keyword leg searches as words. Words naming an author leave: the author stage
 * weighs them, and as keywords they mostly match the other party addressing that author by name.
 * With `dropTimeWords`, the words that spelled a date the query names leave too: the date is
 * searched as calendar tokens in the time columns instead ("may" is then no longer a word to match).
 */
export function keywordQuery(
  analyzed: AnalyzedQuery,
  options: { authorWords: string[]; dropTimeWords: boolean },
): AnalyzedQuery {
  const dated = options.dropTimeWords && analyzed.timeTerms.length > 0;
  return withoutWords(dated ? withoutWords(analyzed, analyzed.timeWords) : analyzed, options.authorWords);
}
