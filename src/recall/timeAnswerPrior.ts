import { occurredTokens } from "../text/temporalTerms.js";
import type { Candidate } from "./candidate.js";

/**
 * Whether a memory mentions a time other than the moment it was said: "yesterday", "last May",
 * "on 8 June". Its own day (a date stamp in the text, "today") does not count, so a memory that
 * repeats when it was written is not mistaken for one that says when something happened.
 */
export function mentionsOtherTime(occurredAt: number | null, timeTerms: string | null): boolean {
  if (!timeTerms) return false;
  const own = new Set(occurredAt === null ? [] : occurredTokens(occurredAt));
  return timeTerms.split(" ").some((t) => t !== "" && !own.has(t));
}

/**
 * Answer-type prior for questions that ask when: the answer is in a memory that names a time
 * ("we moved last May"), while most memories name none but their own moment. Memories without one
 * are multiplied by `penalty` (measurements: docs/experiments/locomo-recall.md).
 */
export function applyTimeAnswerPrior(
  candidates: Candidate[],
  mentions: Map<number, { occurredAt: number | null; timeTerms: string | null }>,
  penalty: number,
): void {
  for (const c of candidates) {
    const m = mentions.get(c.id);
    if (!m || !mentionsOtherTime(m.occurredAt, m.timeTerms)) c.score *= penalty;
  }
}
