import { isNegated, isNegationWord, withoutInterjections } from "../../text/negation.js";
import { stem } from "../../text/stem.js";
import { isContentWord, words } from "../../text/tokenize.js";

/**
 * Words that say when or how firmly something holds, not what it is about: "now", "anymore",
 * "always", "never". Two statements about the same subject differ in them exactly when one replaces
 * the other, so they are left out of every subject comparison (and the negations among them decide
 * polarity separately).
 */
const MARKER_WORDS: ReadonlySet<string> = new Set([
  "now",
  "currently",
  "anymore",
  "nowadays",
  "instead",
  "longer",
  "still",
  "actually",
  "always",
  "never",
  "ever",
  "again",
  "today",
  "here",
  "please",
  // How firmly ("it definitely isn't" / "definitely"), and the time of day of a dated line ("1:33 pm").
  "really",
  "definitely",
  "certainly",
  "absolutely",
  "totally",
  "surely",
  "am",
  "pm",
  "old",
  "new",
  // The scope a memory already lives in ("in this repo"), not what it is about.
  "repo",
  "repository",
  "project",
  "codebase",
]);

/**
 * A statement split for comparison. `subject` holds the stemmed content words that are not values;
 * `values` the literal values it states (numbers, versions, ports, paths, identifiers, quoted or
 * backticked commands), lower-cased as written.
 */
export interface StatementTokens {
  subject: Set<string>;
  values: Set<string>;
  negated: boolean;
}

/** Backticked or quoted spans: commands and literal values, compared whole. */
const QUOTED = /`([^`\n]+)`|"([^"\n]{1,200})"/g;

/**
 * A raw token that is a value rather than a word of the subject: it holds a digit (ports, versions,
 * sizes), or inner punctuation that only code and paths use (`src/app.ts`, `@scope/pkg`, `snake_case`,
 * `localhost:8080`, `getUserId`). Capitalized words are not values: "API" and "Postgres" look alike,
 * and a subject is as often a proper name as a value is.
 */
export function isValueToken(raw: string): boolean {
  return /\d/.test(raw) || /\w[/@_:.]\w/.test(raw) || /^[@~./]/.test(raw) || /^[a-z]+[A-Z]\w*$/.test(raw);
}

/** The statement's subject words, values and polarity. */
export function statementTokens(text: string): StatementTokens {
  const values = new Set<string>();
  const rest = withoutInterjections(text).replace(
    QUOTED,
    (_all, tick: string | undefined, quote: string | undefined) => {
      const value = (tick ?? quote ?? "").trim().toLowerCase();
      if (value.length > 0) values.add(value);
      return " ";
    },
  );
  const subject = new Set<string>();
  let negated = false;
  for (const raw of rest.split(/\s+/)) {
    const token = raw.replace(/^[("'[{]+|[)"'\]},;!?]+$|\.+$|:+$/g, "");
    if (token.length === 0) continue;
    if (isValueToken(token)) {
      values.add(token.toLowerCase());
      continue;
    }
    for (const word of words(token)) {
      const bare = word.replace(/'/g, "");
      if (isNegationWord(word)) negated = true;
      if (isNegationWord(word) || MARKER_WORDS.has(bare)) continue;
      const base = word.endsWith("'s") ? word.slice(0, -2) : bare;
      if (isContentWord(base)) subject.add(stem(base));
    }
  }
  return { subject, values, negated };
}

/**
 * The stems a text uses as common words: every word written in lower case, and a capitalized one
 * only where grammar capitalizes it (the first word, unless it is a label before a colon). What is
 * left are names: of people ("Ana: I won't miss the game, Raj"), products, places. They say who or what
 * is meant, never what is done.
 */
export function commonWordStems(text: string): Set<string> {
  const out = new Set<string>();
  let first = true;
  for (const match of text.matchAll(/\p{L}[\p{L}\p{N}'\u2019-]*/gu)) {
    const word = match[0];
    const label = text[(match.index ?? 0) + word.length] === ":";
    if (word[0] === word[0]!.toLowerCase() || (first && !label)) for (const one of phraseStems(word)) out.add(one);
    first = false;
  }
  return out;
}

/** A subject stem as the text writes it (a reason shows "deploys", not "deploi"); the stem when absent. */
export function writtenForm(text: string, stemmed: string): string {
  return words(text).find((word) => stem(word) === stemmed) ?? stemmed;
}

/** The stemmed content words of a phrase, leaving out the marker and negation words. */
export function phraseStems(phrase: string): string[] {
  const out: string[] = [];
  for (const word of words(phrase)) {
    const bare = word.replace(/'/g, "");
    if (isNegationWord(word) || MARKER_WORDS.has(bare)) continue;
    const base = word.endsWith("'s") ? word.slice(0, -2) : bare;
    if (isContentWord(base)) out.push(stem(base));
  }
  return out;
}

/**
 * The clauses of a text: sentences, and the parts joined by ", and" / "but" / ";" or by an "and" that
 * a negation follows ("retry twice and never skip the checks"). A negation holds for its clause only ("never
 * use npm anymore; always use pnpm" negates npm, not pnpm).
 */
export function clauses(text: string): string[] {
  return text
    .split(
      /[.!?;]+(?:\s+|$)|\n+|,\s*(?:and|but)\s+|\s+but\s+|\s+and\s+(?=(?:not|never|no\s+longer|don'?t|do\s+not)\s)/i,
    )
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * The clauses of the sentences that assert something: a question ("Did you ever take the
 * night train?") states nothing a later memory could reverse, nor reverses one.
 */
export function statedClauses(text: string): string[] {
  const sentences = text.split(/(?<=[.!?])\s+|\n+/);
  return clauses(sentences.filter((sentence) => !/\?["')\]]*\s*$/.test(sentence)).join("\n"));
}

/**
 * The clauses a negation can hold in: those of `clauses`, with each parenthetical remark ("build with
 * Webpack (source maps on, no minification)") and each contrast set off by a comma ("use pnpm, not npm")
 * a clause of its own, so its "no" or "not" is about what it names.
 */
export function negationClauses(text: string): string[] {
  return clauses(text.replace(/\s*\(([^()]*)\)/g, "; $1; ").replace(/,\s*(?=(?:not|never|no)\s)/gi, "; "));
}

/**
 * Whether the text negates what it says of a thing: a clause naming it (`names`) holds a negation.
 * Undefined when no clause names it.
 */
export function negatedWhereNamed(text: string, names: (clause: string) => boolean): boolean | undefined {
  const naming = negationClauses(text).filter(names);
  return naming.length > 0 ? naming.some(isNegated) : undefined;
}

/** Elements of `a` that are also in `b`. */
export function shared<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): T[] {
  return [...a].filter((x) => b.has(x));
}

/** Elements of `a` missing from `b`. */
export function missing<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): T[] {
  return [...a].filter((x) => !b.has(x));
}
