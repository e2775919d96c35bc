import { isNumberedName, namesOtherNumberedThing } from "../../text/numberedNames.js";
import { stem } from "../../text/stem.js";
import { words } from "../../text/tokenize.js";
import { oneKindOfTool } from "../../text/toolKinds.js";
import { escapeRegExp } from "../../util/escapeRegExp.js";
import { type ChangeStatement, changeStatements } from "./changeStatements.js";
import {
  clauses,
  isValueToken,
  missing,
  phraseStems,
  type StatementTokens,
  shared,
  statementTokens,
} from "./statementTokens.js";

/** What the newer of two memories of one scope does to the older: replaces it, or asks a person. */
export interface Judgement {
  verdict: "supersede" | "review";
  /** Which detector fired and on what, for the history and the review list. */
  reason: string;
}

/** A memory as the judgement orders it. */
export interface Dated {
  id: number;
  occurredAt: number | null;
  createdAt: number;
}

/** Whether `a` is newer than `b`: the later occurredAt (else creation time), the higher id on a tie. */
export function isNewer(a: Dated, b: Dated): boolean {
  const at = a.occurredAt ?? a.createdAt;
  const bt = b.occurredAt ?? b.createdAt;
  return at !== bt ? at > bt : a.id > b.id;
}

/**
 * Whether the newer statement replaces the older one, by four detectors that need no model, tried in
 * order: a change of value in an otherwise identical statement (the most precise); a statement of
 * change naming what the older one presents as current; the same action, negated in a clause of one
 * of the two; one tool swapped for another of its kind. Undefined when none applies: a pair that shares a word or two is not about the same
 * subject, and two numbered things of one kind ("service 3", "service 5") are two subjects.
 */
export function judgeSupersession(newer: string, older: string): Judgement | undefined {
  // "Service 3 ..." against "Service 5 ...": statements about two things of a kind, however alike.
  if (namesOtherNumberedThing(newer, older)) return undefined;
  const n = analysed(newer).tokens;
  const o = analysed(older).tokens;
  const flips = analysed(newer).clauses.flatMap((a) => analysed(older).clauses.map((b) => polarityFlipped(a, b)));
  return (
    valueChanged(n, o) ??
    changed(newer, older, o) ??
    flips.find((j) => j?.verdict === "supersede") ??
    flips.find((j) => j !== undefined) ??
    toolSwapped(n, o, { newer, older })
  );
}

/** What the detectors read of a text, computed once per text: a memory is judged against many others. */
interface Analysis {
  tokens: StatementTokens;
  changes: ChangeStatement[];
  clauses: string[];
}

/** Texts analysed lately; a revise batch compares each memory with up to a hundred candidates. */
const ANALYSED_CAP = 4096;
const analyses = new Map<string, Analysis>();

function analysed(text: string): Analysis {
  const known = analyses.get(text);
  if (known) return known;
  if (analyses.size >= ANALYSED_CAP) analyses.clear();
  const analysis = { tokens: statementTokens(text), changes: changeStatements(text), clauses: clauses(text) };
  analyses.set(text, analysis);
  return analysis;
}

/** Everything the older text says, subject words, values and the words inside its values, for "does it mention X". */
function mentionable(tokens: StatementTokens): Set<string> {
  const out = new Set([...tokens.subject, ...tokens.values]);
  for (const value of tokens.values) for (const word of phraseStems(value)) out.add(word);
  return out;
}

/**
 * The tokens that name a thing in a phrase ("the old Jest setup" -> jest). Written like a name (a
 * capital past the sentence's first word, backticks, a value) they are the thing itself and the rest
 * is description; without such a token every content word of the phrase must match.
 */
export function keyTokens(phrase: string, startsSentence: boolean): string[] {
  return [...new Set(keyParts(phrase, startsSentence).map((part) => part.key))];
}

/** A key token and the word of the phrase it was read from ("Terraform" -> terraform, "node-fetch" -> node). */
interface KeyPart {
  key: string;
  word: string;
}

function keyParts(phrase: string, startsSentence: boolean): KeyPart[] {
  const distinctive: KeyPart[] = [];
  const all: KeyPart[] = [];
  const partsOf = (word: string, keys: string[]) => keys.map((key) => ({ key, word }));
  // A backticked or quoted span is a name whole: every word of it.
  const rest = phrase.replace(/`([^`]+)`|"([^"]+)"/g, (_all, tick: string | undefined, quote: string | undefined) => {
    for (const word of (tick ?? quote ?? "").split(/\s+/)) {
      const parts = partsOf(word, phraseStems(word));
      distinctive.push(...parts);
      all.push(...parts);
    }
    return " ";
  });
  rest.split(/\s+/).forEach((raw, index) => {
    const bare = raw.replace(/^[`"'([{]+|[`"')\]},;:!?]+$|\.+$/g, "");
    if (bare.length === 0) return;
    const value = isValueToken(bare);
    const parts = partsOf(bare, value ? [bare.toLowerCase()] : phraseStems(bare));
    all.push(...parts);
    const named = /[a-z][A-Z]|^[A-Z]{2,}/.test(bare) || (/^[A-Z]/.test(bare) && (index > 0 || !startsSentence));
    if (value || named) distinctive.push(...parts);
  });
  return distinctive.length > 0 ? distinctive : all;
}

/**
 * Whether the text names the word as a thing of its own: not inside a longer name that contains it
 * (the tool `terraform-docs`, the files `terraform.tfvars` and `.terraform-version` are not Terraform),
 * in any case, with a plain word's other endings ("workspace" for "workspaces").
 */
function namesWhole(text: string, part: KeyPart): boolean {
  const word = part.word.replace(/^[^\w@./~-]+|[^\w@./~-]+$/g, "");
  if (word.length === 0) return false;
  const form = /^[A-Za-z]+$/.test(word)
    ? `(?:${escapeRegExp(word)}|${escapeRegExp(part.key)})[a-z]*`
    : escapeRegExp(word);
  return new RegExp(String.raw`(?<![\w./@~-])${form}(?![\w/@~-]|[.-]\w)`, "i").test(text);
}

/** Detector (a): "moved from X to Y", "dropped X", "X is now Y" against an older text presenting X as current. */
function changed(newer: string, older: string, o: StatementTokens): Judgement | undefined {
  const said = mentionable(o);
  const olderStatements = analysed(older).changes;
  let review: Judgement | undefined;
  for (const statement of analysed(newer).changes) {
    const verdict =
      statement.kind === "obsolete"
        ? obsoleteNamed(statement, { said, o, text: older, changes: olderStatements })
        : reassigned(statement, said, o, older);
    if (verdict?.verdict === "supersede") return verdict;
    review ??= verdict;
  }
  return review;
}

function obsoleteNamed(
  statement: Extract<ChangeStatement, { kind: "obsolete" }>,
  older: { said: Set<string>; o: StatementTokens; text: string; changes: ChangeStatement[] },
): Judgement | undefined {
  const { said, o, changes: olderStatements } = older;
  const parts = keyParts(statement.obsolete, statement.startsSentence ?? false);
  const x = [...new Set(parts.map((part) => part.key))];
  // The replacement phrase may open the sentence ("Use pnpm instead of npm"): its capital is grammar.
  const y = statement.replacement ? missing(new Set(keyTokens(statement.replacement, true)), new Set(x)) : [];
  if (x.length === 0) return undefined;
  // The older text already says X is gone: it is not the stale one.
  if (olderStatements.some((s) => s.kind === "obsolete" && sameKeys(keyTokens(s.obsolete, true), x))) return undefined;
  const inText = x.filter((k) => said.has(k));
  // A key counts where the older text names it as a thing, not inside a longer name holding it.
  const found = inText.filter((k) => parts.some((part) => part.key === k && namesWhole(older.text, part)));
  const what = statement.replacement
    ? `"${statement.obsolete}" replaced by "${statement.replacement}"`
    : `"${statement.obsolete}" is no longer used`;
  // Named only inside a file, a path or another tool's name (`terraform.tfvars`, `jest.config.js`):
  // some such files go with the tool and some stay, and only a person knows which.
  if (found.length < x.length && inText.length === x.length && !o.negated)
    return { verdict: "review", reason: `change statement: ${what}; this memory names it only inside a longer name` };
  if (found.length < x.length) {
    // One word of a many-word name ("make" of `make release`) is how every sibling command reads.
    return found.length >= 2
      ? { verdict: "review", reason: `change statement: ${what}; this memory names only part of it` }
      : undefined;
  }
  // "Never use X" agrees with "we dropped X": only a text presenting X as current is stale.
  if (o.negated) return undefined;
  if (y.length > 0 && y.every((k) => said.has(k)))
    return { verdict: "review", reason: `change statement: ${what}; this memory names both` };
  return { verdict: "supersede", reason: `change statement: ${what}` };
}

/**
 * "X is now Y" names no old value; an older text naming X and not Y is stale when it is a short
 * statement of what X is (X followed by "is", at most three other words: "the API port is 3000"). A slightly longer one goes to review; a long one that mentions X on the
 * way is about something else.
 */
function reassigned(
  statement: Extract<ChangeStatement, { kind: "reassigned" }>,
  said: Set<string>,
  o: StatementTokens,
  older: string,
): Judgement | undefined {
  const olderStatements = analysed(older).changes;
  const subject = phraseStems(statement.subject);
  const y = missing(new Set(keyTokens(statement.replacement, true)), new Set(subject));
  if (subject.length === 0 || y.length === 0 || !subject.every((k) => said.has(k))) return undefined;
  if (y.every((k) => said.has(k)) || o.negated) return undefined;
  if (olderStatements.some((s) => s.kind === "reassigned" && sameKeys(phraseStems(s.subject), subject)))
    return undefined;
  const what = `"${statement.subject}" is now "${statement.replacement}"`;
  // "X was upgraded to Node 22": an older text giving X the same named thing at another value
  // ("X runs on Node 18") is the old value, however much else it says.
  const next = statementTokens(statement.replacement);
  const oldValues = missing(o.values, next.values);
  if (next.values.size > 0 && oldValues.length > 0 && shared(next.subject, o.subject).length > 0)
    return { verdict: "supersede", reason: `change statement: ${what} (was ${oldValues.join(", ")})` };
  // "We upgraded Redis to version 7": an older text that writes X with a value of its own ("Redis 6
  // is used for caching") gave X the old one.
  const own = ownValue(older, statement.subject);
  if (next.values.size > 0 && own !== undefined && !next.values.has(own))
    return { verdict: "supersede", reason: `change statement: ${what} (was ${own})` };
  const others = missing(o.subject, new Set(subject));
  if (others.length > 6) return undefined;
  return others.length <= 3 && assigns(older, statement.subject)
    ? { verdict: "supersede", reason: `change statement: ${what}` }
    : {
        verdict: "review",
        reason: `change statement: ${what}; this memory mentions "${statement.subject}" among other things`,
      };
}

/**
 * Detector (b): the same sentence with other values ("the API listens on port 3000" -> "... 8080").
 * Three shared subject words pin both the thing and its attribute (two are often just a verb and an
 * object, "use npm", shared by statements about different things); five shared words leave room for
 * one filler word on either side. Each side must hold a value the other lacks: a value added next to
 * the old one is an addition, not a change.
 */
function valueChanged(n: StatementTokens, o: StatementTokens): Judgement | undefined {
  if (n.negated !== o.negated) return undefined;
  const oldValues = missing(o.values, n.values);
  const newValues = missing(n.values, o.values);
  if (oldValues.length === 0 || newValues.length === 0) return undefined;
  const common = shared(n.subject, o.subject).length;
  const differing = missing(n.subject, o.subject).length + missing(o.subject, n.subject).length;
  const what = `value change: ${oldValues.join(", ")} -> ${newValues.join(", ")}`;
  // "`pnpm test` failed with "FAIL a.test.ts"" and "... with "FAIL b.test.ts"": two failures seen,
  // each still true, not one fact whose value changed.
  const reportsFailure = shared(n.subject, o.subject).some((word) => FAILURE_STEMS.has(word));
  if (reportsFailure && spans(oldValues) && spans(newValues)) return undefined;
  // One slot changed is an update; several at once ("`pnpm test` failed with X" against "`pnpm test:e2e`
  // failed with Y") are more likely two statements about different things, for a person to judge.
  const oneSlot = oldValues.length === 1 && newValues.length === 1;
  if (oneSlot && ((differing === 0 && common >= 3) || (differing <= 1 && common >= 5)))
    return { verdict: "supersede", reason: what };
  // Half-sure from here on. Commands or messages that are wholly different ("Command that worked:
  // `pnpm test`" / "... `docker compose up -d`") are entries of a list, not one thing changed: a
  // person asked about every pair of them would stop reading the queue.
  if (otherSpans(oldValues, newValues)) return undefined;
  if (!oneSlot && differing === 0 && common >= 3)
    return { verdict: "review", reason: `${what}; more than one value differs` };
  if ((differing === 0 && common === 2) || (differing <= 1 && common >= 3))
    return { verdict: "review", reason: `${what}; the statements differ a little more than a value` };
  return undefined;
}

/** Words with which a statement says that it is a change ("tests run with vitest now"). */
const SAYS_CHANGE = /\b(?:now|nowadays|instead|anymore|no\s+longer|switched|moved|migrated)\b/i;

/**
 * Detector (d): the same statement with one tool swapped for another of its kind ("tests run with
 * jest" / "tests run with vitest now"), read from the kinds-of-tool table (src/text/toolKinds.ts).
 * Two shared words at least, and nothing else differs. Tools of one kind often live side by side
 * (ruff and mypy, Postgres and Redis), so only a newer statement that says it is a change replaces
 * the older one; without such a word a person decides.
 */
function toolSwapped(
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

/** Stems of the words that report a failure seen ("failed with", "throws", "crashed"): what follows is its output. */
const FAILURE_STEMS: ReadonlySet<string> = new Set([
  "fail",
  "error",
  "crash",
  "throw",
  "threw",
  "panic",
  "panick",
  "broke",
]);

/** Whether every value is a span of several words: a command, a quoted message. */
function spans(values: string[]): boolean {
  return values.every((value) => /\s/.test(value));
}

/**
 * Whether every changed value on both sides is a span of several words (a command, a quoted message)
 * and none is the same span as one on the other side with other arguments: the same program and its
 * first argument ("make docs" / "make docs --html"). "pnpm test" and "pnpm lint" are two commands.
 */
function otherSpans(oldValues: string[], newValues: string[]): boolean {
  const head = (value: string) => value.split(/\s+/).slice(0, 2).join(" ");
  return spans(oldValues) && spans(newValues) && !oldValues.some((a) => newValues.some((b) => head(a) === head(b)));
}

/**
 * Detector (c): the same action, negated in one text only ("always use npm" / "never use npm here
 * anymore"). Two shared words suffice when nothing else differs; with three or more, one extra word
 * on either side is allowed. Beyond that the action itself may differ ("don't use npm to publish"
 * against "use npm to install"), and a person decides.
 */
function polarityFlipped(newer: string, older: string): Judgement | undefined {
  const n = analysed(newer).tokens;
  const o = analysed(older).tokens;
  if (n.negated === o.negated) return undefined;
  const both = shared(n.subject, o.subject);
  if (both.length < 2) return undefined;
  const differing = missing(n.subject, o.subject).length + missing(o.subject, n.subject).length;
  const what = `polarity flip: "${newer}" against "${older}"`;
  if ((both.length === 2 && differing === 0) || (both.length >= 3 && differing <= 1))
    return { verdict: "supersede", reason: what };
  // One word short of sure is worth a person's look; further apart, a negation somewhere in a text
  // that shares two words with another says nothing about it (every memory of a project names it).
  return differing <= 2
    ? { verdict: "review", reason: `${what}; the statements differ beyond the negation` }
    : undefined;
}

/**
 * Whether the text says what the subject is ("the database is MySQL 8", "the CLI is written in Go"):
 * its last word followed by a copula. A verb ("X listens on", "X uses") names one attribute of X among
 * many, which "X is now Y" may not be about.
 */
function assigns(text: string, subject: string): boolean {
  const head = lastWord(subject);
  if (head.length === 0) return false;
  return new RegExp(String.raw`\b${escapeRegExp(head)}\w{0,2}\s*(?:(?:is|are|was|were)\s|=|:)`, "i").test(text);
}

/**
 * The value the text writes right after the subject's last word ("Redis 6", "Node 20.11"), lower-cased;
 * undefined when there is none, or when the number names one of several things ("service 3").
 */
function ownValue(text: string, subject: string): string | undefined {
  const head = lastWord(subject);
  if (head.length === 0) return undefined;
  const match = new RegExp(String.raw`\b${escapeRegExp(head)}\s+(v?\d[\w.]*\w|v?\d)(?!\w|\.\w)`, "i").exec(text);
  const value = match?.[1]?.toLowerCase();
  return value === undefined || isNumberedName(head, value) ? undefined : value;
}

function lastWord(phrase: string): string {
  return (
    phrase
      .split(/\s+/)
      .pop()
      ?.replace(/[^\w@./-]/g, "") ?? ""
  );
}

function sameKeys(a: string[], b: string[]): boolean {
  return a.length > 0 && b.every((k) => a.includes(k));
}
