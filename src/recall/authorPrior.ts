import type { Candidate } from "./candidate.js";
import { grammaticalPerson } from "./grammaticalPerson.js";

/** Whether a `who` label is named by one of the words ("Jane Doe" is named by "jane" or "jane doe"). */
export function namesAuthor(who: string, words: string[]): boolean {
  const label = who.toLowerCase();
  return words.some((w) => label === w || label.startsWith(`${w} `));
}

/** The candidates recorded by an author the query names: the ones whose text the prior reads. */
export function byNamedAuthor(candidates: Candidate[], authorWords: string[]): Candidate[] {
  if (authorWords.length === 0) return [];
  return candidates.filter((c) => c.ref.who !== null && namesAuthor(c.ref.who, authorWords));
}

export interface AuthorPriorOptions {
  /** Factor for memories recorded by someone the query does not name. */
  penalty: number;
  /** Factor for the named author's memories that speak only to someone else (needs their `content`). */
  addressedPenalty: number;
}

/**
 * Attribution: when the query names the author (`who`) of stored memories ("What did Jane decide
 * about caching?"), memories recorded by someone else are multiplied by `penalty`. Memories by a
 * named author, and memories without an author, keep their score. Nothing happens when the query
 * names every author among the candidates ("What did Jane and Ann plan?").
 *
 * Among the named author's memories, the ones in the second person with no first person ("Wow,
 * that painting of yours is great!") are about the one addressed, not about the author: they are
 * multiplied by `addressedPenalty` (measurements: docs/experiments/locomo-recall.md). A candidate
 * without loaded `content` is left alone.
 */
export function applyAuthorPrior(candidates: Candidate[], authorWords: string[], options: AuthorPriorOptions): void {
  if (authorWords.length === 0) return;
  const authors = new Set<string>();
  const named = new Set<string>();
  for (const c of candidates) {
    if (!c.ref.who) continue;
    authors.add(c.ref.who);
    if (namesAuthor(c.ref.who, authorWords)) named.add(c.ref.who);
  }
  if (named.size === 0) return;
  for (const c of candidates) {
    if (!c.ref.who) continue;
    if (!named.has(c.ref.who)) {
      // Every author named: no one is "someone else".
      if (named.size < authors.size) c.score *= options.penalty;
    } else if (c.content !== undefined && grammaticalPerson(c.content) === "addressee") {
      c.score *= options.addressedPenalty;
    }
  }
}
