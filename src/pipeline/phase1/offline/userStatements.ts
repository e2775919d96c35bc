import { PRIVATE_MARKER, PRIVATE_OPEN_MARKER } from "../../../redact/privateBlocks.js";
import { addressesAgent } from "../../../text/addressesAgent.js";
import { NO_IDIOM } from "../../../text/negation.js";
import { sentences } from "./sentences.js";

/**
 * The sentences a user wrote themselves. A message that carries text addressed to an agent ("ignore
 * previous instructions ...") is pasted material, so nothing in it counts; quoted and pasted parts
 * (code blocks, `>` quotes, tagged blocks such as injected context, indented blocks) never do either.
 */
export function ownSentences(message: string): string[] {
  return sentences(ownText(message));
}

/** The text of a message the user wrote themselves, before it is split into sentences (see ownSentences). */
export function ownText(message: string): string {
  if (addressesAgent(message)) return "";
  return (
    message
      // Where a private block was, one thought ended: the next sentence starts after it.
      .replaceAll(PRIVATE_MARKER, "\n")
      .replaceAll(PRIVATE_OPEN_MARKER, "\n")
      .replace(/<([a-z][\w-]*)\b[^>]*>[\s\S]*?<\/\1>/gi, " ")
      .split("\n")
      .filter((line) => !/^(?: {4,}|\t)/.test(line))
      .join("\n")
  );
}

/**
 * Words that open a sentence without saying anything ("ok,", "btw", "FYI:", "Note:", "actually",
 * "No worries,"), and markdown emphasis around them: what the statement says starts after them. "No" and
 * its idioms count only with punctuation after them: "No tests run on CI" is a statement whose "No" is
 * its negation, "No, we use pnpm" one that opens with an answer.
 */
const LEAD_IN = new RegExp(
  String.raw`^(?:[*_]{1,2})?(?:(?:(?:ok(?:ay)?|alright|right|so|and|also|but|btw|fyi|nb|note|update|heads[- ]up|by the way|for the record|just so you know|for context|quick note|actually|well|fwiw|yes|yeah|yep|thanks|thank you)\b[*_]{0,2}[,:;!.\-\u2013\u2014]*|(?:${NO_IDIOM}|oh no|nope|nah)\b[*_]{0,2}[,:;!.\-\u2013\u2014]+)[*_]{0,2}\s+)+`,
  "i",
);

/** The sentence without its opening filler, capitalised and closed with a full stop. */
export function statementText(sentence: string): string {
  const body = sentence.replace(LEAD_IN, "").trim();
  const capital = body.charAt(0).toUpperCase() + body.slice(1);
  return /[.!]$/.test(capital) ? capital : `${capital}.`;
}

/** The sentence without its opening filler, as it is matched. */
export function withoutLeadIn(sentence: string): string {
  return sentence.replace(LEAD_IN, "").trim();
}

/** A question, with or without its mark: it opens with a question word or an inverted auxiliary. */
const QUESTION =
  /^(?:what|which|who|whom|whose|when|where|why|how|is|are|am|was|were|do|does|did|can|could|would|should|shall|will|may|might|must|have|has|had|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|can't|couldn't|won't|wouldn't|shouldn't|any\s+idea|any\s+chance|is\s+there|are\s+there)\b/i;

/**
 * Wording that makes a statement tentative, planned, wished or conditional: it says what might be,
 * not what is ("maybe we should move to pnpm", "if we switch to Vitest", "I think it listens on
 * 3000", "we need to migrate to Postgres", "I want you to switch to pnpm").
 */
const TENTATIVE =
  /\b(?:if|unless|whether|maybe|perhaps|probably|possibly|might|could|would|should|shall|ought|suppose|supposing|imagine|wonder(?:ing)?|consider(?:ing)?|what\s+about|how\s+about|what\s+if|hopefully|hope|think|guess|assume|not\s+sure|seems?|apparently|plan(?:s|ned|ning)?\s+to|going\s+to|gonna|wants?\s+to|wanted\s+to|wanna|needs?\s+to|have\s+to|has\s+to|try(?:ing)?\s+to|let'?s|let\s+us|(?:i|we|you)['\u2019]d)\b/i;

/** A request to the agent about the task at hand ("can you switch to pnpm", "please migrate ..."). */
const REQUEST =
  /\b(?:can|could|would|will)\s+you\b|\bplease\b|\bpls\b|^(?:go\s+ahead|make\s+sure|remember\s+to|don'?t\s+forget)\b/i;

/**
 * Whether a user's sentence asserts something as so: not a question, not tentative or hypothetical,
 * not a request to the agent. Only such sentences can be facts or decisions; a rule the user states
 * for the future ("use pnpm from now on") is a preference and is recognised on its own.
 */
export function isAssertion(sentence: string): boolean {
  const body = withoutLeadIn(sentence);
  if (body.endsWith("?") || QUESTION.test(body)) return false;
  return !TENTATIVE.test(body) && !REQUEST.test(body);
}
