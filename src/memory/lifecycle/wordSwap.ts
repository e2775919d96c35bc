import { stem } from "../../text/stem.js";
import { contentStems, words } from "../../text/tokenize.js";
import { isKnownTool } from "../../text/toolKinds.js";
import type { Judgement } from "./judgement.js";
import { missing, type StatementTokens, shared, writtenForm } from "./statementTokens.js";
import { SAYS_CHANGE } from "./toolSwap.js";

/** Whether a word of the text comes after one of `before` in its order of content words. */
function after(text: string, word: string, before: ReadonlySet<string>): boolean {
  const order = contentStems(text);
  const at = order.indexOf(word);
  return at > 0 && order.slice(0, at).some((w) => before.has(w));
}

/** Words between a slot and the word that opens it that say when, not what ("prefers now spaces"). */
const WHEN = /^(?:now|currently|nowadays|instead|again|still|always)$/;

/** The word right before the written form of `word` in the text, past the words of time. */
function slotOf(text: string, word: string): string | undefined {
  const all = words(text);
  const at = all.findIndex((w) => stem(w) === word);
  for (let i = at - 1; i >= 0; i--) if (!WHEN.test(all[i]!)) return all[i];
  return undefined;
}

/**
 * Detector (h): the same statement with one word in place of another, said as a change ("the user
 * prefers tabs" / "the user now prefers spaces", "we deploy from the main branch" / "we now deploy
 * from the release branch"). Where the word stands decides what it is: after a word both share, it is
 * what the statement says of its subject (its value), and the newer replaces the older; as the first
 * thing named ("the search service now uses Redis" / "the orders service uses Redis") it says which
 * thing, and two things are two facts. The two words must fill the same slot (follow the same word:
 * "tests run in CI" / "tests run with vitest now" fill two), and two tools the kinds table knows are
 * one slot only when of one kind (the tool-swap detector's case): "the worker uses Express" and "the
 * worker now uses Postgres" are two things it uses. Without a word of change the two may be two
 * entries of a list ("run the tests with X" / "run the linter with X"), and nothing happens.
 */
export function wordSwapped(
  n: StatementTokens,
  o: StatementTokens,
  texts: { newer: string; older: string },
): Judgement | undefined {
  if (n.negated !== o.negated || !SAYS_CHANGE.test(texts.newer)) return undefined;
  if (missing(n.values, o.values).length > 0 || missing(o.values, n.values).length > 0) return undefined;
  const added = missing(n.subject, o.subject);
  const gone = missing(o.subject, n.subject);
  const both = new Set(shared(n.subject, o.subject));
  if (added.length !== 1 || gone.length !== 1 || both.size < 2) return undefined;
  if (!after(texts.older, gone[0]!, both) || !after(texts.newer, added[0]!, both)) return undefined;
  if (slotOf(texts.older, gone[0]!) !== slotOf(texts.newer, added[0]!)) return undefined;
  const from = writtenForm(texts.older, gone[0]!);
  const to = writtenForm(texts.newer, added[0]!);
  if (isKnownTool(from) || isKnownTool(to)) return undefined;
  return {
    verdict: "supersede",
    reason: `changed: "${from}" -> "${to}"`,
  };
}
