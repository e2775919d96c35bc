import { words } from "./tokenize.js";

/**
 * Words that turn what their clause states around: plain negations, refusals ("avoid", "stop",
 * "forbid", "disable": coding instructions negate with them as often as with "not") and "anymore",
 * which only follows a negation. One list for every reader of polarity (supersession, the fact
 * pipeline's contradiction detector, the stale-statement matcher), so two of them never disagree on
 * whether a sentence is negated. Contractions are listed without their apostrophe, as `words()` may
 * leave them; any other "n't" form counts too.
 */
const NEGATION_WORDS: ReadonlySet<string> = new Set([
  "not",
  "no",
  "never",
  "none",
  "neither",
  "nor",
  "cannot",
  "without",
  "anymore",
  "avoid",
  "avoids",
  "avoided",
  "stop",
  "stops",
  "stopped",
  "disable",
  "disabled",
  "forbid",
  "forbidden",
  "dont",
  "doesnt",
  "didnt",
  "isnt",
  "arent",
  "wasnt",
  "werent",
  "wont",
  "cant",
  "shouldnt",
  "mustnt",
  "hasnt",
  "havent",
  "couldnt",
  "wouldnt",
]);

/** Whether one word (as `words()` returns it) negates its clause. */
export function isNegationWord(word: string): boolean {
  return /n['\u2019]t$/.test(word) || NEGATION_WORDS.has(word.replace(/['\u2019]/g, ""));
}

/**
 * "No" and the idioms it opens that say nothing when they stand alone ("no worries", "no way", "no
 * thanks"), as a regular expression source: the one list the polarity readers and the offline
 * extractor's lead-in filler share. Whether the idiom stands alone is the caller's test.
 */
export const NO_IDIOM =
  "no(?:\\s+(?:worries|problems?|probs?|doubts?|way|kidding|sweat|biggie|big\\s+deal|thanks|thank\\s+you))?";

/**
 * "No" standing alone as an answer or an interjection: "No worries, Mel!", "Oh no, Jon", "No, we use
 * pnpm", "No prob." It opens its clause (or follows "oh") and ends at punctuation, so it negates
 * nothing the clause states. "There's no problem with the cache" and "no way to run it offline" keep
 * their negation: the phrase does not end there.
 */
const INTERJECTION = new RegExp(`(^|[.!?;:,]\\s*|\\b(?:oh|ah|aw)\\s+)${NO_IDIOM}(?=\\s*(?:[,.!?;]|$))`, "gi");

/** The text without the interjections "no worries", "oh no", an answer's "No," and the like. */
export function withoutInterjections(text: string): string {
  return /\bno\b/i.test(text) ? text.replace(INTERJECTION, "$1") : text;
}

/** Whether the text holds a negation anywhere (an interjection's "no" is none). */
export function isNegated(text: string): boolean {
  return words(withoutInterjections(text)).some(isNegationWord);
}
