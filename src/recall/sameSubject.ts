import { isNumberedName } from "../text/numberedNames.js";
import { stem } from "../text/stem.js";
import { isContentWord, words } from "../text/tokenize.js";
import { oneKindOfTool } from "../text/toolKinds.js";

/** Stems of words seen before: candidates of one project repeat most of their vocabulary. */
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 20_000;

function cachedStem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stemmed = stem(word);
    stems.set(word, stemmed);
  }
  return stemmed;
}

/**
 * The words that say what a memory is about: stemmed content words without values. A word with a
 * digit (a port, a version, a count, a date) is the value a statement gives its subject, and is
 * exactly what changes when a fact is updated ("listens on port 3000" -> "on port 8080"), so it
 * never counts for or against being about the same thing; the number of a numbered name ("service
 * 3") is the exception: it says which thing.
 */
export function subjectWords(content: string): string[] {
  const out = new Set<string>();
  const all = words(content);
  all.forEach((word, i) => {
    const base = word.endsWith("'s") ? word.slice(0, -2) : word.replace(/'/g, "");
    if (isContentWord(base) && !/\d/.test(base)) out.add(cachedStem(base));
    else if (isNumberedName(all[i - 1], base)) out.add(base);
  });
  return [...out];
}

/**
 * The command, file or setting a memory opens with, when its first words are a code span
 * ("`notes sync` copies ...", "`src/db.ts` holds ..."): coding memories written that way are
 * statements about that thing, whatever else their words share. Whitespace inside is collapsed.
 */
export function leadingCodeSpan(content: string): string | undefined {
  const match = /^\s*`([^`\n]{2,80})`/.exec(content);
  return match ? match[1]!.trim().replace(/\s+/g, " ") : undefined;
}

/**
 * How much two memories share what they are about, in [0, 1]: twice the weight of the subject words
 * they share over the weight of both memories' subject words (the Dice coefficient; each word weighs
 * 1 unless `weight` says otherwise, e.g. its IDF). Symmetric, so a short memory that shares two words
 * with a long one is not "the same".
 */
export function subjectOverlap(
  a: readonly string[],
  b: readonly string[],
  weight: (word: string) => number = () => 1,
): number {
  const other = new Set(b);
  const total = (list: readonly string[]) => list.reduce((sum, word) => sum + weight(word), 0);
  const both = total(a) + total(b);
  return both > 0 ? (2 * total(a.filter((word) => other.has(word)))) / both : 0;
}

/**
 * The word a memory holds in place of another memory's word when the two make the same statement
 * about two things: their subject words differ by exactly one word each ("the orders service
 * listens on ..." / "the search service listens on ...") and those two words are not tools of one
 * kind (npm -> pnpm, jest -> vitest is one setting changed). Returns `a`'s word, or undefined when
 * the two are not such a pair.
 */
export function swappedSubject(a: readonly string[], b: readonly string[]): string | undefined {
  const inA = new Set(a);
  const inB = new Set(b);
  const onlyA = a.filter((word) => !inB.has(word));
  const onlyB = b.filter((word) => !inA.has(word));
  if (onlyA.length !== 1 || onlyB.length !== 1) return undefined;
  return oneKindOfTool(onlyA[0]!, onlyB[0]!, cachedStem) ? undefined : onlyA[0];
}
