import { NOT_A_RULE, pointsToTranscript } from "./preferences.js";
import { sentences } from "./sentences.js";
import { ownText } from "./userStatements.js";

/**
 * Text an agent's harness puts in the user's turn, by its structure: nothing but tagged blocks (a task
 * notification, a command's output, a hook's message wrapped in its tag), a bare slash command with no
 * words after it ("/mode": the user drove the tool, asked nothing), or a continuation prompt, a message
 * of a few words that only says to go on ("continue", "Please continue."). None of it is a request, a
 * preference or a correction.
 */
export function isHarnessText(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === "") return true;
  if (
    /^<([a-z][\w-]*)\b[^>]*>/i.test(trimmed) &&
    trimmed.replace(/<([a-z][\w-]*)\b[^>]*>[\s\S]*?<\/\1>/gi, "").trim() === ""
  ) {
    return true;
  }
  if (/^\/[\w:.-]*$/.test(trimmed)) return true;
  return isContinuation(trimmed);
}

/** A message that only says to go on: no object, nothing the agent did not already have. */
export function isContinuation(text: string): boolean {
  return /^(?:(?:ok(?:ay)?|yes|yeah|please|pls|now)[,.!]?\s+)*(?:continue|go on|keep going|proceed|carry on|resume)(?:\s+(?:please|where you left off|with the (?:task|work)))?[.!]*$/i.test(
    text.trim(),
  );
}

/**
 * Where a prohibition is addressed to the agent: opening a sentence or a clause, or after "please",
 * "you", "and", "but", "so", "just", "then". "I don't think ...", "it doesn't update" describe; they
 * forbid nothing.
 */
const IMPERATIVE = String.raw`(?:^|[,;:.!]\s*|\b(?:please|you|and|but|so|just|then)\s+)`;

/**
 * Words with which a user corrects or restricts what the agent does: a refusal ("no inline styles!",
 * "no, ..."), a prohibition ("don't", "do not", "never", "stop"), a restriction ("only use ..."), an
 * obligation on how the work is or behaves ("parse() should return null on bad input", "the header
 * should stay fixed", "you must ..."; not a step of the task, "the helpers must move too"). Read on the
 * user's own sentences, never on quoted or pasted text.
 */
const CORRECTING = new RegExp(
  String.raw`(?:^|[,;:]\s*)no\s+(?!(?:idea|problem|worries|wait|way|need)\b)[\w-]+|${IMPERATIVE}(?:don'?t|do\s+not|never|stop)\b|\binstead\b|\b(?:should|must)(?:n'?t|\s+not)?\s+(?:be|stay|remain|return|use|look|match|have|keep|never|always|only)\b|\byou\s+(?:should|must)\b|(?:^|\b(?:i|we|you)\s+)only\s+(?:use|want|need|run|change|edit|touch|modify|keep)\b|^only\b`,
  "i",
);

/** The strong ones: a prohibition or an exclaimed refusal ("no force pushes!"). */
const PROHIBITING = new RegExp(
  String.raw`${IMPERATIVE}(?:don'?t|do\s+not|never|stop)\b|(?:^|[,;:]\s*)no\s+[\w-]+[^,.;?]*!`,
  "i",
);

/**
 * "should" or "must" the speaker puts on themselves or on events is an expectation, not a correction
 * ("then we should be fine", "it should work now"); and inside a clause a question word opens
 * ("propose where these files should go") it asks for a proposal.
 */
const NOT_CORRECTING =
  /\b(?:we|i|it|that|this|there)\s+(?:should|must)\b|\b(?:where|what|which|how|whether|if|who|when)\b[^,.;!?]{0,60}\b(?:should|must)\b/i;

/**
 * A line the user pasted from a program rather than wrote: an error with its type ("TypeError: x must be
 * a string"), a stack frame, a located diagnostic ("src/a.ts:3:5", "(12,4)"), a shell prompt, a numbered
 * diff line ("+ 14 - ..."). Its "must" or "don't" is the program's, not a correction.
 */
const PASTED_OUTPUT =
  /\b[A-Z]\w*(?:Error|Exception|Warning):|^\s*at\s+\S+.*[(:]\d|\S+\.\w+:\d+(?::\d+)?\b|\(\d+,\s*\d+\)|➜|^\s*[$#>]\s|^\s*[+-]\s*\d+\s/;

/** A question is not a correction, even with "should" in it ("should we ...?"). */
const QUESTION_START =
  /^(?:what|which|who|why|how|when|where|is|are|do|does|did|can|could|would|should|shall|will|any)\b/i;

/** The longest quote a correction keeps. */
const QUOTE_CHARS = 240;

export interface Correction {
  quote: string;
  /** A prohibition, an exclaimed refusal, or words after a step the user refused or undid. */
  strong: boolean;
}

/**
 * The user's own words in a message that corrects the agent, quoted, or null. A message corrects when it
 * follows a step of the agent's that the user refused or stopped (`afterStep`), when it says the user
 * undid the agent's work, or when one of its sentences uses correcting words; questions, expectations
 * and pointers to transcripts are not corrections. The quote is the message's correcting sentences (all
 * its statements when the correction is strong).
 */
export function correctionOf(message: string, afterStep: boolean): Correction | null {
  const own = ownText(message)
    .split("\n")
    .filter((line) => !PASTED_OUTPUT.test(line))
    .join("\n");
  const statements = sentences(own, 4).filter(
    (sentence) => !isQuestion(sentence) && !pointsToTranscript(sentence) && !NOT_A_RULE.test(sentence),
  );
  const undone = statements.some((sentence) => /\b(?:undid|reverted|rolled\s+back)\b/i.test(sentence));
  const correcting = statements.filter((sentence) => CORRECTING.test(sentence) && !NOT_CORRECTING.test(sentence));
  const strong = afterStep || undone || correcting.some((sentence) => PROHIBITING.test(sentence));
  // A strong correction is quoted with the rest of what the user said with it ("no retries! the call
  // should fail fast ..."): the reason and the wanted behaviour are in the neighbouring sentences.
  const words = (strong ? statements : correcting).join(" ").trim();
  if (correcting.length === 0 && !afterStep && !undone) return null;
  if (words.split(/\s+/).length < 3) return null;
  const quote = words.length <= QUOTE_CHARS ? words : `${words.slice(0, QUOTE_CHARS - 1).trimEnd()}…`;
  return { quote, strong };
}

function isQuestion(sentence: string): boolean {
  return sentence.trim().endsWith("?") || QUESTION_START.test(sentence.trim());
}
