import { isDecisionContent } from "../../../text/decisionLanguage.js";
import { ownSentences } from "./userStatements.js";

/**
 * Wording that makes a statement outlast the task at hand: a standing rule ("always", "never",
 * "from now on"), a stated taste ("I prefer", "I'd rather"), or a default ("use X instead of Y").
 * A request about the current task ("I want you to do a deep analysis", "propose where these
 * files should go") has none of it and is not a preference.
 */
const DURABLE: readonly RegExp[] = [
  // Imperative rule at the start: "Always run ...", "Never push ...", "Please never ...".
  /^(?:(?:ok|okay|and|also|so|but|please|pls|btw|note|remember)[,:]?\s+)*(?:always|never)\b/i,
  // A short label before the rule: "Team rule: never ...", "Reminder: always ...".
  /^[^.:;]{1,30}:\s+(?:please\s+)?(?:always|never)\b/i,
  // A standing habit stated by the user or asked of the agent: "I always ...", "you should never ...".
  /\b(?:i|we|you)\s+(?:should\s+|must\s+|will\s+|need\s+to\s+|have\s+to\s+)?(?:always|never)\s+(?!(?:been|was|were|had|did|got|saw|seen|heard|knew|thought|used\s+it)\b)\w+/i,
  /\b(?:must|should|shall)\s+(?:always|never)\b/i,
  /\b(?:please|pls)\s+(?:always|never)\b/i,
  /\b(?:don'?t|do\s+not|never)\s+ever\b|\bnever\s+again\b/i,
  /\b(?:from\s+now\s+on|going\s+forward|by\s+default|as\s+a\s+(?:general\s+)?rule|every\s+time\s+you|whenever\s+you)\b/i,
  /\bin\s+(?:all|every|each|any)\s+(?:of\s+)?(?:my|our|the)?\s*(?:projects?|repos?|repositories|codebases?)\b|\beverywhere\b/i,
  /\b(?:i|we)\s+(?:really\s+|generally\s+|usually\s+)?(?:prefer|like\s+to)\b|\b(?:i|we)(?:['\u2019]d|\s+would)\s+(?:rather|prefer)\b/i,
  /\bmy\s+(?:preference|rule|convention)\s+is\b/i,
  // "Don't add dependencies without asking me first", "ask me before you push": a standing check.
  /\bwithout\s+asking(?:\s+me)?\b|\bask\s+me\s+(?:first\s+)?before\b/i,
  // "Prefer small commits", "Use pnpm instead of npm": a default stated as an instruction.
  /^(?:please\s+)?prefer\s+\w/i,
  /^(?:please\s+)?(?:use|run|prefer|write|keep)\s+[^.,;]{1,40}?\s+(?:instead\s+of|rather\s+than|over)\s+\S/i,
];

/** Events, not rules: "that should never happen", "it always crashes". */
export const NOT_A_RULE =
  /\b(?:should|would|will|must)\s+never\s+(?:happen|occur)\b|\b(?:always|never)\s+(?:happens?|happened|crash(?:es|ed)?|fails?|failed|breaks?|broke|worked|works|hangs?|returns?|shows?|gets?|got)\b/i;

/** Where an agent keeps its transcripts: a pointer to one session's history is not a preference. */
const TRANSCRIPT_PATH =
  /\S+\.jsonl\b|[/\\]\.(?:pi|omp|claude|codex|gemini|opencode)[/\\]|[/\\]sessions[/\\]\S*\d{4}-\d{2}-\d{2}|\brollout-\d{4}-\d{2}-\d{2}/i;

/**
 * The sentences of one user message that state a durable preference (`ownSentences` leaves out what
 * was pasted); text between quotation marks inside a sentence is never read as the rule either.
 */
export function statedPreferences(message: string): string[] {
  return ownSentences(message).filter(isPreference);
}

export function isPreference(sentence: string): boolean {
  if (sentence.endsWith("?") || isDecisionContent(sentence)) return false;
  if (!/^[\p{L}"'`]/u.test(sentence) || sentence.split(/\s+/).length < 4) return false;
  if (pointsToTranscript(sentence) || NOT_A_RULE.test(sentence)) return false;
  const unquoted = sentence.replace(/"[^"]*"|\u201c[^\u201d]*\u201d/g, " ");
  return DURABLE.some((pattern) => pattern.test(unquoted));
}

/** A pointer to a session transcript ("look up the history in ~/.pi/agent/sessions/...jsonl"). */
export function pointsToTranscript(text: string): boolean {
  return TRANSCRIPT_PATH.test(text);
}
