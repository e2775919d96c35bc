import { analysed } from "./analysedStatement.js";
import type { Judgement } from "./judgement.js";
import { commonWordStems, missing, shared } from "./statementTokens.js";

/**
 * Detector (c): the same action, negated in one text only ("always use npm" / "never use npm here
 * anymore"). Two shared words suffice when nothing else differs; with three or more, one extra word
 * on either side is allowed. Beyond that the action itself may differ ("don't use npm to publish"
 * against "use npm to install"), and a person decides.
 */
export function polarityFlipped(newer: string, older: string): Judgement | undefined {
  const n = analysed(newer).tokens;
  const o = analysed(older).tokens;
  if (n.negated === o.negated) return undefined;
  // "The replicas do not run MySQL 8.0 yet" says nothing against "they run 5.7": each names a
  // value the other lacks, so the negated action is not the other's.
  if (missing(n.values, o.values).length > 0 && missing(o.values, n.values).length > 0) return undefined;
  const both = shared(n.subject, o.subject);
  if (both.length < 2) return undefined;
  // The same action needs a word for it: two texts that share only names ("Ana: I won't miss the
  // game, Raj" / "Ana: Sounds good, Raj") are about the same people, not the same thing.
  const common = new Set([...commonWordStems(newer), ...commonWordStems(older)]);
  if (!both.some((word) => common.has(word))) return undefined;
  const differing = missing(n.subject, o.subject).length + missing(o.subject, n.subject).length;
  const what = `polarity flip: "${newer}" against "${older}"`;
  if ((both.length === 2 && differing === 0) || (both.length >= 3 && differing <= 1))
    return { verdict: "supersede", reason: what };
  // One word short of sure is worth a person's look; further apart, a negation somewhere in a text
  // that shares two words with another says nothing about it (every memory of a project names it).
  return differing <= 2
    ? { verdict: "review", reason: `${what}; the statements differ beyond the negation` }
    : undefined;
}
