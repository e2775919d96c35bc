import type { Candidate } from "./candidate.js";

/** Auxiliaries and wh-scaffolding that end in "s" but are not plural nouns. */
const NOT_PLURAL = new Set(["is", "was", "has", "does", "has", "its", "this", "his", "hers", "yours", "ours", "theirs", "us", "as", "whereas"]);

/**
 * Does the question ask for several things ("What activities does X do?", "Which books has she
 * read?", "What has X painted?", "What kinds of …", "… both …")? Such answers are spread over a
 * conversation, each item said once; a single-answer question is better served by the plain ranking.
 */
export function isListQuery(query: string): boolean {
  const q = query.toLowerCase();
  if (/\b(both|kinds?\s+of|types?\s+of|sorts?\s+of|in\s+what\s+ways|which\s+ways)\b/.test(q)) return true;
  const m = /\b(?:what|which)\s+(?:[a-z]+\s+)?([a-z]+)\b/.exec(q);
  const first = /\b(?:what|which)\s+([a-z]+)\b/.exec(q)?.[1];
  if (first && first.length > 3 && first.endsWith("s") && !first.endsWith("ss") && !NOT_PLURAL.has(first)) return true;
  if (/\b(?:what|which)\s+(?:has|have)\s+\S+(?:\s+\S+)?\s+\w+(?:ed|en|ne)\b/.test(q)) return true;
  return m === null ? false : false;
}

/**
 * Session diversification: greedy selection where each further pick from the same session (scope +
 * session id) is multiplied by `penalty` once more. Conversation context lifts the neighbours of a
 * strong hit; for a list question those neighbours crowd out the other sessions where the other
 * items were said. Scores are only lowered, so the scale stays calibrated. Returns a new order.
 */
export function diversifyBySession(ranked: Candidate[], penalty: number): Candidate[] {
  const pool = [...ranked];
  const picked: Candidate[] = [];
  const taken = new Map<string, number>();
  const key = (c: Candidate) => (c.ref.sessionId === null ? `#${c.id}` : `${c.ref.scope}\u0000${c.ref.sessionId}`);
  while (pool.length > 0) {
    let best = 0;
    let bestScore = -1;
    for (let i = 0; i < pool.length; i++) {
      const c = pool[i] as Candidate;
      const s = c.score * penalty ** (taken.get(key(c)) ?? 0);
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    }
    const c = pool.splice(best, 1)[0] as Candidate;
    taken.set(key(c), (taken.get(key(c)) ?? 0) + 1);
    c.score = bestScore;
    picked.push(c);
  }
  return picked;
}
