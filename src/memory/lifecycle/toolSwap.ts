import { SAYS_CHANGE } from "../../text/saysChange.js";
import { stem } from "../../text/stem.js";
import { words } from "../../text/tokenize.js";
import { oneKindOfTool } from "../../text/toolKinds.js";
import type { Judgement } from "./judgement.js";
import { missing, type StatementTokens, shared } from "./statementTokens.js";

export { SAYS_CHANGE };

/**
 * Detector (d): the same statement with one tool swapped for another of its kind ("tests run with
 * jest" / "tests run with vitest now"), read from the kinds-of-tool table (src/text/toolKinds.ts).
 * Two shared words at least, and nothing else differs. Tools of one kind often live side by side
 * (ruff and mypy, Postgres and Redis), so only a newer statement that says it is a change replaces
 * the older one; without such a word a person decides.
 */
export function toolSwapped(
  n: StatementTokens,
  o: StatementTokens,
  texts: { newer: string; older: string },
): Judgement | undefined {
  if (n.negated !== o.negated) return undefined;
  const added = missing(n.subject, o.subject);
  const gone = missing(o.subject, n.subject);
  if (added.length !== 1 || gone.length !== 1 || shared(n.subject, o.subject).length < 2) return undefined;
  if (!oneKindOfTool(gone[0]!, added[0]!, stem)) return undefined;
  // The tools as the memories write them, not as stemmed ("mypy", not "mypi").
  const written = (text: string, stemmed: string) => words(text).find((word) => stem(word) === stemmed) ?? stemmed;
  const what = `tool change: ${written(texts.older, gone[0]!)} -> ${written(texts.newer, added[0]!)}`;
  return SAYS_CHANGE.test(texts.newer)
    ? { verdict: "supersede", reason: what }
    : { verdict: "review", reason: `${what}; the newer memory does not say it replaces the older` };
}
