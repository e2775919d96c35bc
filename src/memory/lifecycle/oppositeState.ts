import { isNegationWord } from "../../text/negation.js";
import { OPPOSITE_STATES, type OppositePair } from "../../text/oppositeStates.js";
import { RecentMemo } from "../../text/recentMemo.js";
import { stem } from "../../text/stem.js";
import { isContentWord, words } from "../../text/tokenize.js";
import type { Judgement } from "./judgement.js";
import { negationClauses } from "./statementTokens.js";

/**
 * Words that join a state to its subject ("is", "was set to", "got turned"), and articles: they carry
 * no subject, and two statements of one setting differ in them as the newer says "is now turned off".
 */
const GLUE: ReadonlySet<string> = new Set(
  "a an the is are was were be been being has have had got it its set to turned turn switched switch kept stays remains left made".split(
    " ",
  ),
);

/**
 * Words that say when, not what: the newer statement says "now" or "anymore". (Not the scope words of
 * the other detectors' markers: "the repo is private" is about the repo.)
 */
const WHEN: ReadonlySet<string> = new Set(
  "now currently nowadays anymore instead longer still again today actually always".split(" "),
);

/** Words before an adjective that make it the state ("is public"), not which thing ("the public API"). */
const BEING =
  /^(?:is|are|was|were|be|been|being|stays?|remains?|kept|set|made|turned|switched|now|default|always|still)$/;

/** Articles and possessives: after one, a state word is a modifier of what follows ("the disabled users"). */
const DETERMINER = /^(?:the|a|an|our|its|their|this|that|these|those|your|my|his|her|every|each|all|some|any)$/;

interface StateReading {
  /** Stems of the words beside the state words, in order. */
  rest: string[];
  /** The state words found, as pair index and side. */
  states: { pair: number; side: "a" | "b"; word: string }[];
  negated: boolean;
}

/**
 * Texts read lately: a revise batch compares each memory with many candidates, and a bulk import
 * judges older memories again batch after batch.
 */
const readings = new RecentMemo<StateReading>(16_384);

function read(text: string): StateReading {
  return readings.get(text, readState);
}

function readState(text: string): StateReading {
  const all = words(text);
  const rest: string[] = [];
  const states: StateReading["states"] = [];
  let negated = false;
  all.forEach((word, i) => {
    const base = word.replace(/'/g, "");
    const stemmed = stem(base);
    const previous = all[i - 1];
    const pair = OPPOSITE_STATES.findIndex((p) => p.x === stemmed || p.y === stemmed);
    if (pair >= 0 && statesHere(OPPOSITE_STATES[pair]!, previous)) {
      states.push({ pair, side: OPPOSITE_STATES[pair]!.x === stemmed ? "a" : "b", word });
      return;
    }
    if (isNegationWord(word)) negated = true;
    if (GLUE.has(base) || WHEN.has(base) || isNegationWord(word)) return;
    rest.push(stemmed);
  });
  return { rest, states, negated };
}

/** Whether a state word stands as the statement's state where it is, not as a modifier. */
function statesHere(pair: OppositePair, previous: string | undefined): boolean {
  if (pair.copula) return previous !== undefined && BEING.test(previous);
  return previous === undefined || !DETERMINER.test(previous);
}

/** The word pair the two readings hold on opposite sides, when exactly one such pair differs. */
function flipped(n: StateReading, o: StateReading): { from: string; to: string } | undefined {
  const flips = n.states.filter((s) => o.states.some((t) => t.pair === s.pair && t.side !== s.side));
  const same = n.states.filter((s) => o.states.some((t) => t.pair === s.pair && t.side === s.side));
  if (flips.length !== 1 || same.length > 0 || n.states.length !== 1 || o.states.length !== 1) return undefined;
  return { from: o.states[0]!.word, to: n.states[0]!.word };
}

/** Elements of `a` not in `b`, counted as a multiset. */
function extra(a: string[], b: string[]): string[] {
  const left = [...b];
  return a.filter((word) => {
    const at = left.indexOf(word);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

/**
 * Detector (f): the same statement with a state turned to its opposite ("Feature X is enabled" /
 * "Feature X is disabled", "telemetry is on by default" / "... off by default", "the API allows
 * anonymous access" / "... denies ..."). Every other word, names, numbers and single letters
 * included, must match: "Feature X" and "Feature Y" are two settings. Sure when nothing else differs;
 * one word more on one side only (a qualifier: "globally", "again") is for a person. A word on each
 * side names another thing, and a negation beside the state word (a double negative) is left to the
 * polarity detector. Compared whole, then clause by clause: a clause of the older memory flipped by
 * the newer one goes to review, since the rest of the older memory may still hold.
 */
export function oppositeState(newer: string, older: string): Judgement | undefined {
  const [n, o] = [read(newer), read(older)];
  // Most pairs hold no state word turned around: nothing to read clause by clause.
  if (!n.states.some((s) => o.states.some((t) => t.pair === s.pair && t.side !== s.side))) return undefined;
  const whole = compare(n, o);
  if (whole) return whole;
  const oldClauses = negationClauses(older);
  const newClauses = negationClauses(newer);
  if (oldClauses.length < 2 && newClauses.length < 2) return undefined;
  for (const a of newClauses)
    for (const b of oldClauses) {
      const part = compare(read(a), read(b));
      if (part)
        return {
          verdict: "review",
          reason: `${part.reason.replace(/; .*$/, "")}; in one clause of "${older}"`,
        };
    }
  return undefined;
}

function compare(n: StateReading, o: StateReading): Judgement | undefined {
  if (n.negated || o.negated) return undefined;
  const flip = flipped(n, o);
  if (!flip) return undefined;
  const added = extra(n.rest, o.rest);
  const gone = extra(o.rest, n.rest);
  const shared = n.rest.length - added.length;
  const sharedContent = extra(n.rest, added).filter(isContentWord).length;
  const what = `opposite state: ${flip.from} -> ${flip.to}`;
  if (added.length === 0 && gone.length === 0 && sharedContent >= 1) return { verdict: "supersede", reason: what };
  if (added.length + gone.length === 1 && sharedContent >= 2 && shared >= 2)
    return { verdict: "review", reason: `${what}; the statements differ by one more word` };
  return undefined;
}
