import { isContentWord, words } from "./tokenize.js";

/**
 * Nouns that take a number as the name of one of several things of a kind: "service 3", "worker 2",
 * "step 4", "issue #42". The number after such a noun says which thing a statement is about, not a
 * value the statement gives it: "Service 3 stores its data in Postgres" and "Service 5 stores its
 * data in Postgres" are two facts, where "The app uses Vue 2" and "The app uses Vue 3" are one fact
 * and its update.
 *
 * Written from general knowledge of what software work numbers (instances, units of work, parts of a
 * document), not from any evaluation set. Left out on purpose: nouns whose number is usually a
 * version or a setting ("node", "python", "version", "release", "port", "level", "api"), and nouns
 * whose number moves as the thing changes ("line", "page", "row", "column"): a statement about one
 * of those is updated when its number changes.
 */
const NUMBERED_NOUNS: ReadonlySet<string> = new Set([
  // Things that run side by side.
  "service",
  "worker",
  "server",
  "host",
  "instance",
  "replica",
  "shard",
  "partition",
  "cluster",
  "pod",
  "vm",
  "machine",
  "device",
  "queue",
  "topic",
  "channel",
  "tenant",
  "team",
  "squad",
  "lane",
  "slot",
  "tier",
  // Units of work and of planning.
  "sprint",
  "milestone",
  "iteration",
  "phase",
  "stage",
  "step",
  "task",
  "job",
  "batch",
  "wave",
  "round",
  "ticket",
  "issue",
  "bug",
  "pr",
  "story",
  "epic",
  // Parts of a document, a test plan, a list of choices.
  "case",
  "scenario",
  "option",
  "item",
  "part",
  "section",
  "chapter",
  "appendix",
  "figure",
  "table",
]);

/** A whole number as it follows such a noun (no version dots, no units); "#42" reads as 42 to the tokenizer. */
const NAME_NUMBER = /^\d{1,6}$/;

/**
 * Whether `word` is the number of a numbered name: a whole number right after one of the nouns above
 * (`previous`, the word before it, any case), both words as the tokenizer reads them. The tokenizer
 * does not see punctuation, so "in step, 3 files changed" reads as step 3: rare enough to accept.
 */
export function isNumberedName(previous: string | undefined, word: string): boolean {
  return previous !== undefined && NAME_NUMBER.test(word) && NUMBERED_NOUNS.has(previous.toLowerCase());
}

/** Each noun of a text's numbered names with its numbers ("Service 3" -> service: 3). */
export type NumberedNames = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * A word kept for matching (src/text/tokenize.ts's content words), or the number of a numbered name
 * that follows `previous`: a lone digit otherwise says nothing, but "service 3" says which service.
 */
export function isContentWordOrName(previous: string | undefined, word: string): boolean {
  return isContentWord(word) || isNumberedName(previous, word);
}

/** The numbered names of a text, as the tokenizer reads it. */
export function numberedNames(text: string): NumberedNames {
  const all = words(text);
  const out = new Map<string, Set<string>>();
  all.forEach((word, i) => {
    const noun = all[i - 1];
    if (noun === undefined || !isNumberedName(noun, word)) return;
    const numbers = out.get(noun) ?? new Set<string>();
    numbers.add(word);
    out.set(noun, numbers);
  });
  return out;
}

/** The numbers of the numbered names in a text ("Service 3 and issue #42" -> 3, 42). */
export function namedNumbers(text: string): string[] {
  return [...numberedNames(text).values()].flatMap((numbers) => [...numbers]);
}

/**
 * Whether two texts are about different things of one kind: both number the same noun, and no
 * number of it is common to them ("Service 3 no longer uses Redis" / "Service 5 uses Redis"). Takes
 * the texts, or their `numberedNames` when a caller compares one text with many.
 */
export function namesOtherNumberedThing(a: string | NumberedNames, b: string | NumberedNames): boolean {
  const inA = typeof a === "string" ? numberedNames(a) : a;
  const inB = typeof b === "string" ? numberedNames(b) : b;
  for (const [noun, numbers] of inA) {
    const other = inB.get(noun);
    if (other && ![...numbers].some((number) => other.has(number))) return true;
  }
  return false;
}
