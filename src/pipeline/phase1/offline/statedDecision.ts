import { isDecisionContent } from "../../../text/decisionLanguage.js";
import { isAssertion, withoutLeadIn } from "./userStatements.js";

/**
 * Whether a user's sentence records a choice that was made ("we decided to use Vitest", "switched to
 * pnpm last week"). Decision wording in a question, a plan or a request is no decision ("should we
 * switch to pnpm?", "can you migrate to Postgres", "we need to move to pnpm"), and neither is an
 * instruction that opens with the verb itself ("switch to pnpm", "migrate to Postgres 16"): that is
 * the task at hand. An instruction meant to last says so ("use pnpm from now on") and is a preference.
 */
export function isStatedDecision(sentence: string): boolean {
  if (!isDecisionContent(sentence) || !isAssertion(sentence)) return false;
  const body = withoutLeadIn(sentence);
  const [first = "", ...rest] = body.split(/\s+/);
  const openedByTheChoice = !isDecisionContent(rest.join(" "));
  // Past or progressive ("Switched to ...", "Decided to ...", "Went with ...") reports the choice.
  return !openedByTheChoice || /(?:ed|ing|s)$|^(?:went|chose|chosen)$/i.test(first.replace(/\W+$/, ""));
}
