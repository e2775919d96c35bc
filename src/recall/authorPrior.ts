import type { Candidate } from "./candidate.js";

/** Whether a `who` label is named by one of the words ("Jane Doe" is named by "jane" or "jane doe"). */
export function namesAuthor(who: string, words: string[]): boolean {
  const label = who.toLowerCase();
  return words.some((w) => label === w || label.startsWith(`${w} `));
}

/**
 * Attribution: when the query names the author (`who`) of stored memories ("What did Jane decide
 * about caching?"), memories recorded by someone else are multiplied by `penalty`. Memories by a
 * named author, and memories without an author, keep their score. Nothing happens when the query
 * names every author among the candidates ("What did Jane and Ann plan?").
 */
export function applyAuthorPrior(candidates: Candidate[], authorWords: string[], penalty: number): void {
  if (authorWords.length === 0) return;
  const authors = new Set<string>();
  const named = new Set<string>();
  for (const c of candidates) {
    if (!c.ref.who) continue;
    authors.add(c.ref.who);
    if (namesAuthor(c.ref.who, authorWords)) named.add(c.ref.who);
  }
  if (named.size === 0 || named.size === authors.size) return;
  for (const c of candidates) {
    if (c.ref.who && !named.has(c.ref.who)) c.score *= penalty;
  }
}
