import { isNegationWord, withoutInterjections } from "../../text/negation.js";
import { OPPOSITE_STATES } from "../../text/oppositeStates.js";
import { aboutOtherNamedThings } from "../../text/otherNamedThings.js";
import { aboutOtherOccasions, reportedOccasion } from "../../text/reportedOccasion.js";
import { stem } from "../../text/stem.js";
import { contentStems, words } from "../../text/tokenize.js";

/** What a contradiction detector found between a new fact and a stored memory. */
export interface Contradiction {
  detector: "syntactic" | "semantic";
  reason: string;
}

/**
 * Opposite settings and directions that keep a sentence's subject while reversing what it says: the
 * opposite states supersession reads (src/text/oppositeStates.ts), and directions of change that only
 * ask a person here (added / removed, passes / fails).
 */
const DIRECTIONS: ReadonlyArray<readonly [string, string]> = [
  ["add", "remove"],
  ["install", "uninstall"],
  ["increase", "decrease"],
  ["pass", "fail"],
];
const STEMMED = [
  ...OPPOSITE_STATES.map(({ a, b, x, y }) => ({ a, b, x, y })),
  ...DIRECTIONS.map(([a, b]) => ({ a, b, x: stem(a), y: stem(b) })),
];

/** What the detector reads from one statement. */
interface Statement {
  negated: boolean;
  /** Stemmed content words (stop words left out). */
  content: Set<string>;
  /** Every word stemmed, stop words kept: "on" and "off" are stop words and antonyms. */
  stems: Set<string>;
}

/**
 * Statements read recently: a session compares each fact with several candidates, and a stored memory
 * is a candidate for many facts. Bounded, so a long run does not grow it.
 */
const recent = new Map<string, Statement>();
const RECENT_MAX = 2000;

function statementOf(text: string): Statement {
  let statement = recent.get(text);
  if (!statement) {
    const all = words(text);
    statement = {
      negated: words(withoutInterjections(text)).some(isNegationWord),
      content: new Set(contentStems(text)),
      stems: new Set(all.map((word) => stem(word.replace(/'/g, "")))),
    };
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(text, statement);
  }
  return statement;
}

/** Whether the text negates what it states. */
export function hasNegation(text: string): boolean {
  return statementOf(text).negated;
}

/** Stemmed content words both texts contain (stop words left out). */
export function sharedTokens(a: string, b: string): string[] {
  const right = statementOf(b).content;
  return [...statementOf(a).content].filter((token) => right.has(token));
}

/** The first opposite pair with one side in each text and neither side in both. */
export function oppositeTerms(a: string, b: string): readonly [string, string] | undefined {
  const left = statementOf(a).stems;
  const right = statementOf(b).stems;
  for (const { a: one, b: other, x, y } of STEMMED) {
    if (left.has(x) && right.has(y) && !left.has(y) && !right.has(x)) return [one, other];
    if (left.has(y) && right.has(x) && !left.has(x) && !right.has(y)) return [other, one];
  }
  return undefined;
}

/** The shared stems as the fact spells them, for a reason a person reads. */
function spelled(fact: string, shared: string[]): string {
  const wanted = new Set(shared);
  const out: string[] = [];
  for (const word of words(fact)) {
    const token = stem(word.replace(/'/g, ""));
    if (wanted.delete(token)) out.push(word);
  }
  return out.slice(0, 4).join(", ");
}

/**
 * The syntactic contradiction detector: two statements about the same thing (at least two shared
 * content words) where one is negated and the other not, or where they use opposite words
 * (enabled / disabled). Cheap and pure, so it runs on every proposal; it only flags for review.
 */
export function detectSyntacticContradiction(fact: string, stored: string): Contradiction | null {
  // "Worker 2 does not run the export" says nothing against "Worker 4 runs the export", nor "note 15:
  // ..." against "note 18: ...", nor "in staging ..." against "in production ...".
  if (aboutOtherNamedThings(fact, stored)) return null;
  // "`cp ...` failed with "No such file"" says nothing against "`npm run check` failed with ...": a
  // "no" inside one report of what ran does not negate a report of another command or error.
  if (aboutOtherOccasions(reportedOccasion(fact), reportedOccasion(stored))) return null;
  const shared = sharedTokens(fact, stored);
  if (shared.length < 2) return null;
  const about = spelled(fact, shared);
  // Opposite terms first: "disabled" is also a negation word, and the pair says more.
  const pair = oppositeTerms(fact, stored);
  if (pair) return { detector: "syntactic", reason: `opposite terms ${pair[0]} / ${pair[1]} (shared: ${about})` };
  if (hasNegation(fact) !== hasNegation(stored)) {
    return { detector: "syntactic", reason: `one statement negates the other (shared: ${about})` };
  }
  return null;
}
