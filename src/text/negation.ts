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

/** Whether the text holds a negation anywhere. */
export function isNegated(text: string): boolean {
  return words(text).some(isNegationWord);
}
