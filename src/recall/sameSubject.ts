import { contentStems } from "../text/tokenize.js";

/**
 * The words that say what a memory is about: stemmed content words without values. A word with a
 * digit (a port, a version, a count, a date) is the value a statement gives its subject, and is
 * exactly what changes when a fact is updated ("listens on port 3000" -> "on port 8080"), so it
 * never counts for or against being about the same thing.
 */
export function subjectWords(content: string): string[] {
  return [...new Set(contentStems(content).filter((word) => !/\d/.test(word)))];
}

/**
 * How much two memories share what they are about, in [0, 1]: twice the IDF weight of the subject
 * words they share over the weight of both memories' subject words (a weighted Dice coefficient).
 * Rare words (a tool, a file, a flag) weigh most; words most memories of the store use weigh little.
 * Symmetric, so a short memory that shares two common words with a long one is not "the same".
 * `weight` gives a word's IDF.
 */
export function subjectOverlap(a: readonly string[], b: readonly string[], weight: (word: string) => number): number {
  const other = new Set(b);
  const total = (words: readonly string[]) => words.reduce((sum, word) => sum + weight(word), 0);
  const both = total(a) + total(b);
  if (both <= 0) return 0;
  return (2 * total(a.filter((word) => other.has(word)))) / both;
}
