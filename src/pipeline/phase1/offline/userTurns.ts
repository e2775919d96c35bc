import { NOT_A_RULE, pointsToTranscript } from "./preferences.js";
import { sentences } from "./sentences.js";
import { ownText } from "./userStatements.js";

/**
 * Text an agent's harness puts in the user's turn, by its structure: nothing but tagged blocks (a task
 * notification, a command's output, a hook's message wrapped in its tag), a bare slash command with no
 * words after it ("/mode": the user drove the tool, asked nothing), a bracketed note standing alone
 * ("[Request interrupted by user]"), a message a hook sent in the user's name (opened by the hook's
 * label: its event, a matcher, "hook", what it reports, a colon), or a continuation prompt that only says
 * to go on ("continue", "Please continue."). None of it is a request, a preference or a correction.
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
  if (BRACKETED_NOTE.test(trimmed) || HOOK_LABEL.test(trimmed)) return true;
  return isContinuation(trimmed);
}

/** A note in square brackets and nothing else: the harness marking an event, never a sentence of the user's. */
const BRACKETED_NOTE = /^\[[^[\]\n]{1,160}\]$/;

/**
 * The label a hook's message opens with: the event's name as one capitalised identifier (with a
 * matcher after a colon), the word "hook", a few words on what it reports, then a colon ending the
 * label ("Stop hook feedback:", "PreToolUse:Bash hook error:", "UserPromptSubmit operation blocked by
 * hook:"). A person writing about a hook names it in a sentence ("the pre-commit hook fails: ...").
 */
const HOOK_LABEL = /^[A-Z][A-Za-z]+(?::[\w*|.-]+)? (?:hook(?: [a-z]+){0,3}|[a-z]+(?: [a-z]+){0,2} by hook):(?:\s|$)/;

/** A sentence that only says to go on: a verb of going on, courtesy, and where from or with what. */
const CONTINUE_SENTENCE = new RegExp(
  String.raw`^(?:(?:ok(?:ay)?|yes|yeah|please|pls|now)[,.!]?\s+)*(?:continue|go on|keep going|proceed|carry on|resume)` +
    String.raw`(?:\s+(?:please|(?:the|this)\s+conversation|(?:from\s+)?where\s+(?:you|we|it)\s+left\s+(?:it\s+|things\s+)?off|with\s+(?:the|your|this)\s+(?:last\s+|current\s+)?(?:task|work)(?:\s+(?:that\s+)?you\s+were\s+(?:asked\s+to\s+work\s+on|doing|working\s+on))?|without\s+asking\s+(?:the\s+user\s+|me\s+)?(?:any\s+)?(?:further\s+|more\s+)?questions))*[.!]*$`,
  "i",
);

/**
 * A message that only says to go on: no object, nothing the agent did not already have. Every sentence
 * of it goes on ("Please continue the conversation from where we left it off without asking the user
 * any further questions. Continue with the last task that you were asked to work on.").
 */
export function isContinuation(text: string): boolean {
  const parts = text
    .trim()
    .split(/(?<=[.!])\s+/)
    .filter((part) => part.length > 0);
  return parts.length > 0 && parts.length <= 3 && parts.every((part) => CONTINUE_SENTENCE.test(part));
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
  /\b[A-Z]\w*(?:Error|Exception|Warning):|^\s*at\s+\S+.*[(:]\d|\S+\.\w+:\d+(?::\d+)?\b|\(\d+,\s*\d+\)|\u279c|^\s*[$#>]\s|^\s*[+-]\s*\d+\s/;

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
