import { isNegated } from "../../text/negation.js";
import { isNumberedName } from "../../text/numberedNames.js";
import { RecentMemo } from "../../text/recentMemo.js";
import { stem } from "../../text/stem.js";
import { isContentWord } from "../../text/tokenize.js";
import { oneKindOfTool } from "../../text/toolKinds.js";
import { escapeRegExp } from "../../util/escapeRegExp.js";
import { analysed } from "./analysedStatement.js";
import type { ChangeStatement } from "./changeStatements.js";
import type { Judgement } from "./judgement.js";
import {
  isValueToken,
  missing,
  negatedWhereNamed,
  phraseStems,
  type StatementTokens,
  shared,
  statementTokens,
} from "./statementTokens.js";

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

/**
 * Phrases read lately, by whether they open a sentence: a change statement's phrase is read against
 * every older memory of its subject. Callers only read the parts.
 */
const readParts = new RecentMemo<readonly KeyPart[]>(16_384);

function keyParts(phrase: string, startsSentence: boolean): readonly KeyPart[] {
  return readParts.get(`${startsSentence ? "^" : "-"}${phrase}`, (key) => readKeyParts(key.slice(1), startsSentence));
}

function readKeyParts(phrase: string, startsSentence: boolean): KeyPart[] {
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
  return wholeName(part, "i")?.test(text) ?? false;
}

/** The pattern of `namesWhole`; undefined for a word with nothing left to name. */
function wholeName(part: KeyPart, flags: string): RegExp | undefined {
  const word = part.word.replace(/^[^\w@./~-]+|[^\w@./~-]+$/g, "");
  if (word.length === 0) return undefined;
  const form = /^[A-Za-z]+$/.test(word)
    ? `(?:${escapeRegExp(word)}|${escapeRegExp(part.key)})[a-z]*`
    : escapeRegExp(word);
  return new RegExp(String.raw`(?<![\w./@~-])${form}(?![\w/@~-]|[.-]\w)`, flags);
}

/** Detector (a): "moved from X to Y", "dropped X", "X is now Y" against an older text presenting X as current. */
export function changed(newer: string, older: string, o: StatementTokens): Judgement | undefined {
  const said = mentionable(o);
  const olderStatements = analysed(older).changes;
  const { tokens: n, changes } = analysed(newer);
  let review: Judgement | undefined;
  for (const statement of changes) {
    const verdict =
      statement.kind === "obsolete"
        ? obsoleteNamed(statement, { said, o, text: older, changes: olderStatements }, n)
        : reassigned(statement, said, { o, n }, older);
    if (verdict?.verdict === "supersede") return verdict;
    review ??= verdict;
  }
  return review ?? undone(newer, olderStatements, changes);
}

/**
 * An older change undone: the older memory made X obsolete ("we moved from Gulp to Rollup", "we
 * dropped Redux") and the newer one uses X ("we use Gulp for builds again"). With a word of return the older
 * change no longer holds; without one the newer may be a late echo of the old state, for a person.
 */
function undone(newer: string, olderStatements: ChangeStatement[], newerStatements: ChangeStatement[]) {
  for (const statement of olderStatements) {
    if (statement.kind !== "obsolete") continue;
    const parts = keyParts(statement.obsolete, statement.startsSentence ?? false);
    if (parts.length === 0 || !parts.every((part) => namesWhole(newer, part))) continue;
    if (negatedAbout(newer, parts)) continue;
    const x = parts.map((part) => part.key);
    if (newerStatements.some((s) => s.kind === "obsolete" && sameKeys(keyTokens(s.obsolete, true), x))) continue;
    const what = `"${statement.obsolete}" is in use again, which this memory says was ${statement.replacement ? `replaced by "${statement.replacement}"` : "given up"}`;
    // Only a text that says X is used ("we use Gulp for builds", "tests run with Jest") contradicts the
    // change; one that tells of X ("the Jest config was deleted", "run npx jest again") does not.
    const use = usesOf(newer, parts);
    if (use.back) return { verdict: "supersede" as const, reason: `change undone: ${what}` };
    // Naming the replacement too, without saying X came back, it compares ("Gulp was slower than Rollup").
    const y = statement.replacement ? keyParts(statement.replacement, true) : [];
    if (y.length > 0 && y.some((part) => namesWhole(newer, part))) continue;
    if (use.uses)
      return {
        verdict: "review" as const,
        reason: `change undone?: ${what}; the newer memory does not say it came back`,
      };
  }
  return undefined;
}

/**
 * How the text names X: `uses`, right after a verb or preposition of use ("use Gulp", "runs with
 * Jest"); `back`, as come back ("back to Gulp", "reverted to MySQL", "we use Gulp for builds again").
 */
function usesOf(text: string, parts: readonly KeyPart[]): { uses: boolean; back: boolean } {
  let uses = false;
  let back = false;
  for (const part of parts) {
    const at = wholeName(part, "gi");
    if (at === undefined) continue;
    for (const match of text.matchAll(at)) {
      const before = text.slice(0, match.index);
      const after = text.slice((match.index ?? 0) + match[0].length);
      if (/\b(?:back\s+(?:to|on|with)|revert(?:ed|ing)?\s+to)\s+(?:the\s+)?$/i.test(before)) back = true;
      if (!/\b(?:use|uses|using|with|via|through)\s+(?:the\s+)?$/i.test(before)) continue;
      uses = true;
      // "again" in the same clause, at most a few words on: "use Gulp for the asset builds again".
      if (/^(?:\s+[\w.-]+){0,4}?\s+again\b/i.test(after)) back = true;
    }
  }
  return { uses, back };
}

function obsoleteNamed(
  statement: Extract<ChangeStatement, { kind: "obsolete" }>,
  older: { said: Set<string>; o: StatementTokens; text: string; changes: ChangeStatement[] },
  n: StatementTokens,
): Judgement | undefined {
  const { said, o, changes: olderStatements } = older;
  const parts = keyParts(statement.obsolete, statement.startsSentence ?? false);
  const x = [...new Set(parts.map((part) => part.key))];
  // The replacement phrase may open the sentence ("Use Rollup instead of Gulp"): its capital is grammar.
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
  const negated = negatedAbout(older.text, parts);
  if (found.length < x.length && inText.length === x.length && !negated)
    return { verdict: "review", reason: `change statement: ${what}; this memory names it only inside a longer name` };
  if (found.length < x.length) {
    // One word of a many-word name ("make" of `make release`) is how every sibling command reads.
    return found.length >= 2
      ? { verdict: "review", reason: `change statement: ${what}; this memory names only part of it` }
      : undefined;
  }
  // "Never use X" agrees with "we dropped X": only a text presenting X as current is stale.
  if (negated) return undefined;
  // "raised from 2.4 to 2.6", "reduced from 10 to 5": a bare number names nothing, and a memory
  // holding it may be about anything; what else both say must show it is the same setting.
  if (parts.every((part) => isValueToken(part.word)) && /^[\d.]+$/.test(x.join(""))) {
    const context = shared(n.subject, o.subject).length;
    if (context === 0) return undefined;
    if (context < 2) return { verdict: "review", reason: `change statement: ${what}; the memories share little else` };
  }
  // "We moved from Rollup back to Gulp" against "We moved from Gulp to Rollup": the older change, undone.
  const reversed = olderStatements.some(
    (s) =>
      s.kind === "obsolete" &&
      s.replacement !== undefined &&
      sameKeys(keyTokens(s.replacement, true), x) &&
      sameKeys(keyTokens(s.obsolete, s.startsSentence ?? false), y),
  );
  if (y.length > 0 && reversed)
    return { verdict: "supersede", reason: `change statement: ${what} (undoing the older change)` };
  if (y.length > 0 && y.every((k) => said.has(k)))
    return { verdict: "review", reason: `change statement: ${what}; this memory names both` };
  // "Packages are published to the npm registry" is about the registry, which outlives a move from
  // npm to pnpm; unless the two memories share what they are about, a person decides.
  const context = missing(o.subject, new Set([...x, ...y, ...phraseStems(statement.obsolete)]));
  if (onlyAsModifier(older.text, parts) && shared(new Set(context), n.subject).length === 0)
    return {
      verdict: "review",
      reason: `change statement: ${what}; this memory names it only as part of another thing`,
    };
  // "Replaced Redis with Postgres for the job queue" retires Redis for the queue only: a memory of
  // another use ("Redis also holds the rate-limit counters") may still hold.
  const purpose = statement.purpose ? phraseStems(statement.purpose) : [];
  if (purpose.length > 0 && !purpose.some((word) => said.has(word)))
    return {
      verdict: "review",
      reason: `change statement: ${what} ${statement.purpose}; this memory may be about another use of it`,
    };
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
  tokens: { o: StatementTokens; n: StatementTokens },
  older: string,
): Judgement | undefined {
  const { o, n } = tokens;
  const olderStatements = analysed(older).changes;
  const subject = phraseStems(statement.subject);
  const y = missing(new Set(keyTokens(statement.replacement, true)), new Set(subject));
  if (subject.length === 0 || y.length === 0 || !subject.every((k) => said.has(k))) return undefined;
  if (y.every((k) => said.has(k)) || o.negated) return undefined;
  if (olderStatements.some((s) => s.kind === "reassigned" && sameKeys(phraseStems(s.subject), subject)))
    return undefined;
  const what = `"${statement.subject}" is now "${statement.replacement}"`;
  // "X was upgraded to Deno 2": an older text giving X the same named thing at another value
  // ("X runs on Deno 1.46") is the old value, however much else it says.
  const next = statementTokens(statement.replacement);
  // Only a version is that thing's old value: "edit requirements.in" beside Python is a file of the
  // project, which "X was upgraded to Python 3.12" leaves as it is.
  const oldValues = missing(o.values, next.values).filter((value) => /^v?\d/.test(value));
  if (next.values.size > 0 && oldValues.length > 0 && shared(next.subject, o.subject).length > 0)
    return { verdict: "supersede", reason: `change statement: ${what} (was ${oldValues.join(", ")})` };
  // "We upgraded Redis to version 7": an older text that writes X with a value of its own ("Redis 6
  // is used for caching") gave X the old one.
  const own = ownValue(older, statement.subject);
  if (next.values.size > 0 && own !== undefined && !next.values.has(own))
    return { verdict: "supersede", reason: `change statement: ${what} (was ${own})` };
  const others = missing(o.subject, new Set(subject));
  if (others.length > 6) return undefined;
  // "X was upgraded to Ruby 3.3" gives X a tool at a version: an older memory that neither says what X
  // is nor names the tool or one of its kind ("alerts from X go to the queue") is about another thing of X.
  const ofYsKind = phraseStems(statement.replacement).some((tool) =>
    others.some((word) => oneKindOfTool(word, tool, stem)),
  );
  if (
    next.values.size > 0 &&
    next.subject.size > 0 &&
    shared(next.subject, o.subject).length === 0 &&
    !ofYsKind &&
    !assigns(older, statement.subject)
  )
    return undefined;
  // "the report tool was ported to Deno" changes one thing about that tool; a memory about its config file
  // is about another thing of it. Only one that says something of the same sort is worth a person's
  // look: it shares another word with the newer memory, or names a tool of Y's kind ("the database
  // runs on MySQL 8" / "the database is now Postgres 16").
  // A short statement of X's value by the same link is the old value: "deploys go through Heroku".
  // X uses many things at once, so "uses" links the same attribute only for a tool of Y's kind.
  const sameLink = relates(older, statement) && (!statement.relation?.startsWith("use") || ofYsKind);
  if (others.length <= 3 && (assigns(older, statement.subject) || sameLink))
    return { verdict: "supersede", reason: `change statement: ${what}` };
  // "Uses" is shared by every memory of what X uses (X uses many things at once), so it shows no
  // sort; a verb of one attribute ("runs with", "goes through") does.
  const link = new Set(statement.relation?.startsWith("use") ? phraseStems(statement.relation) : []);
  const sameSort = others.some((word) => n.subject.has(word) && !link.has(word)) || ofYsKind;
  return !sameSort
    ? undefined
    : {
        verdict: "review",
        reason: `change statement: ${what}; this memory mentions "${statement.subject}" among other things`,
      };
}

/**
 * Whether the text names X only to describe another thing: after "the" or a possessive and before a
 * content word ("the npm registry", "the Heroku bill"), never on its own ("use npm"). An indefinite
 * article introduces something made with X ("lives in a Redux store"), which goes with X.
 */
function onlyAsModifier(text: string, parts: readonly KeyPart[]): boolean {
  let seen = false;
  for (const part of parts) {
    const at = wholeName(part, "gi");
    if (at === undefined) continue;
    for (const match of text.matchAll(at)) {
      seen = true;
      const before =
        text
          .slice(0, match.index)
          .match(/(\S+)\s+$/)?.[1]
          ?.toLowerCase() ?? "";
      const after = text.slice((match.index ?? 0) + match[0].length).match(/^\s+([a-z]+)/)?.[1] ?? "";
      if (!/^(?:the|our|its|their|your|my)$/.test(before) || !isContentWord(after)) return false;
    }
  }
  return seen;
}

/**
 * Whether the text negates what it says of X: a clause naming X holds a negation ("never use npm to
 * publish", "npm is not used"). A negation elsewhere is about something else (`negationClauses`). A
 * text that does not name X whole is read as a whole.
 */
function negatedAbout(text: string, parts: readonly KeyPart[]): boolean {
  return negatedWhereNamed(text, (clause) => parts.some((part) => namesWhole(clause, part))) ?? isNegated(text);
}

/**
 * Whether the text says what the subject is ("the database is MySQL 8", "the CLI is written in Go"):
 * its last word followed by a copula. A verb ("X listens on", "X uses") names one attribute of X among
 * many, which "X is now Y" may not be about.
 */
function assigns(text: string, subject: string): boolean {
  const head = lastWord(subject);
  if (head.length === 0) return false;
  // X after a preposition is not what the sentence is about: "errors from X are reported to Y" says
  // where errors go, not what X is.
  return new RegExp(
    String.raw`(?<!\b(?:from|of|for|in|on|to|with|by|at|into|about)\s+(?:the\s+)?)\b${escapeRegExp(head)}\w{0,2}\s*(?:(?:is|are|was|were)\s|=|:)`,
    "i",
  ).test(text);
}

/**
 * Whether the text links the subject to something by the newer statement's own verb ("deploys go
 * through Heroku" against "deploys now go through Fly.io"): the same attribute of X, another value.
 */
function relates(text: string, statement: Extract<ChangeStatement, { kind: "reassigned" }>): boolean {
  const head = lastWord(statement.subject);
  const [verb, ...rest] = statement.relation?.split(/\s+/) ?? [];
  if (head.length === 0 || verb === undefined) return false;
  // The verb's present forms: "goes" and "go", "uses" and "use".
  const base = escapeRegExp(verb.replace(/(?<=o)es$|s$/, ""));
  const after = rest.map((word) => String.raw`\s+${escapeRegExp(word)}`).join("");
  return new RegExp(String.raw`\b${escapeRegExp(head)}\w{0,2}\s+${base}(?:e?s)?${after}\b`, "i").test(text);
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
