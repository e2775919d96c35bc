import { RecentMemo } from "./recentMemo.js";
import { stem } from "./stem.js";
import { isContentWord } from "./tokenize.js";
import { kindsOfTool } from "./toolKinds.js";

/**
 * The code-like names a statement gives, and which of them it is about. A name written the way code
 * names things (snake_case, kebab-case, a path, a dotted name, an environment variable, camelCase, a
 * backticked span) names one thing: "The payments_cron table ..." and "The feed_worker table ..." are
 * about two tables however alike the rest, and "billing-api listens on 3000" is not updated by
 * "billing-worker listens on 4000". Where a name stands decides what it is: in the subject slot (before
 * the main verb, or what an imperative or "we ..." acts on: "Run the billing-api tests with ...") it
 * says which thing; after the verb it is usually a value the statement gives the thing (an image, a
 * variable, a path), which a later statement may change.
 *
 * The main verb is found without a tagger: a word of being or having, or a verb common in statements
 * about software (the list below, compared by stem), standing after the first word. Written from how
 * developers state facts about code and infrastructure, not from any evaluation set. A sentence whose
 * verb is not found is all subject: a fragment ("billing-api on port 3000") names its thing.
 */
export interface SubjectNames {
  /** Names in the subject slot, lower-cased. */
  subject: ReadonlySet<string>;
  /** Every name of the text, the subject's included. */
  all: ReadonlySet<string>;
  /**
   * Names that follow a word of being in their own clause ("the image is node:22-alpine", "is built
   * from distroless/static"): a value the thing holds one of at a time.
   */
  afterBeing: ReadonlySet<string>;
  /** Backticked names: commands and literal values, how a thing is done rather than which thing. */
  spans: ReadonlySet<string>;
  /** Whether the subject slot is a definite description of one thing ("The staging config ..."), whose attribute holds one value. */
  definite: boolean;
  /**
   * Whether its main verb has or includes "a"/"an" thing ("The orders table has an index on (sku)"): one
   * entry of a set, beside which another statement's entry is an addition, not a change.
   */
  oneOfMany: boolean;
  /** What kind of statement it is: the main verb's stem, the subject's first and last plain words, the kinds of tool it names. */
  kinds: readonly string[];
}

/** Forms of being and having, and modals: a verb whatever follows. */
const AUXILIARIES: ReadonlySet<string> = new Set(
  "is are was were be been being has have had does do did can cannot can't will would should must may might shall gets got isn't aren't wasn't doesn't don't didn't won't".split(
    " ",
  ),
);
const BEING: ReadonlySet<string> = new Set("is are was were be been being isn't aren't wasn't".split(" "));

/** Verbs of having: with "a"/"an" after them, the object is one of several. */
const HAVING: ReadonlySet<string> = new Set(
  "has have had includes include contains contain holds hold supports support".split(" "),
);

/**
 * Verbs that statements about software commonly use (general English, not from a data set), as stems;
 * stemmed on first use, since stemming them all costs a command that never reads a statement's subject
 * (a recall imports this module with the store) several milliseconds.
 */
const VERB_WORDS =
  "listen read write run use keep live go retry time publish build serve want review page pin deploy store call send " +
  "point depend need require expose return handle own log host load fetch hold contain include support accept reject " +
  "allow deny fail pass work start stop restart test lint format bundle compile install upgrade downgrade migrate move " +
  "switch replace port change set raise lower increase reduce bump drop remove add create delete update sync push pull " +
  "merge rebase release ship emit consume produce queue schedule trigger expire rotate encrypt sign verify validate " +
  "check monitor alert notify track measure cache index search match map route proxy forward redirect connect bind " +
  "mount open close lock wait sleep poll watch generate render import export parse serialize sort filter limit " +
  "throttle batch split join configure enable disable toggle prefer avoid recommend mean cover belong trace rely wrap " +
  "listens reads writes runs uses keeps lives goes retries publishes builds serves wants reviews";
let verbStems: ReadonlySet<string> | undefined;
function verbs(): ReadonlySet<string> {
  verbStems ??= new Set(VERB_WORDS.split(" ").map(stem));
  return verbStems;
}

/** Words that open a statement as its actor: "we pin ...", "I prefer ...". */
const PRONOUNS: ReadonlySet<string> = new Set(["we", "i", "you", "they", "our", "let's"]);

/** Words that say when or how firmly, skipped where a verb is looked for. */
const ADVERBS: ReadonlySet<string> = new Set(
  "now always never also still currently usually often only just then please no longer not".split(" "),
);

/** Prepositions that continue a noun phrase ("deploys of X to staging", "calls from X to Y"). */
const PHRASE_PREPOSITIONS: ReadonlySet<string> = new Set([
  "of",
  "for",
  "from",
  "to",
  "in",
  "on",
  "at",
  "between",
  "across",
]);

/** Prepositions after which an imperative's object ends and its value starts ("with `cmd`", "to 8080"). */
const VALUE_PREPOSITIONS: ReadonlySet<string> = new Set(
  "to with from at into onto via using as by under over through instead than".split(" "),
);

/** Words that open a clause of their own: what follows is a circumstance, not the subject. */
const SUBORDINATORS: ReadonlySet<string> = new Set(
  "when whenever until unless because while if once since where which so".split(" "),
);

const DETERMINERS: ReadonlySet<string> = new Set(
  "the a an its their our this that these those each every all any".split(" "),
);

/** A backticked span, or a run of non-space characters. */
const TOKEN = /`[^`\n]+`|[^\s`]+/g;

/** Whether a token, punctuation stripped, is written the way code names a thing. */
export function isCodeName(token: string): boolean {
  if (token.startsWith("`")) return token.length > 2;
  if (!/[a-z]/i.test(token)) return false;
  if (/^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+$/.test(token)) return true; // kebab-case, snake_case, ENV_VARS
  if (/[A-Za-z0-9][/][A-Za-z0-9_.-]|^\/[A-Za-z]/.test(token)) return true; // paths
  if (/^[a-z]+[A-Z][A-Za-z0-9]*$/.test(token)) return true; // camelCase
  // Dotted names (package.json, orders.created), not versions (1.2.3, v1.2) or abbreviations (e.g.).
  return /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+$/.test(token) && !/^(?:e\.g|i\.e|etc|vs)$/i.test(token);
}

interface Token {
  raw: string;
  /** Lower case, surrounding punctuation removed. */
  word: string;
  name: boolean;
}

function tokensOf(sentence: string): Token[] {
  return [...sentence.matchAll(TOKEN)]
    .map(({ 0: raw }) => {
      const bare = raw.startsWith("`") ? raw : raw.replace(/^[("'[{]+|[)"'\]},;:!?]+$|\.+$/g, "");
      return { raw: bare, word: bare.toLowerCase(), name: isCodeName(bare) };
    })
    .filter((token) => token.word.length > 0);
}

const plain = (token: Token) => !token.name && /^[a-z][a-z'\u2019-]*$/.test(token.word);
const isVerb = (token: Token) =>
  plain(token) && (AUXILIARIES.has(token.word) || verbs().has(stem(token.word.replace(/['\u2019]s$/, ""))));

/** Index of the main verb of a declarative sentence, past its subject phrase; -1 when none is found. */
function mainVerb(tokens: Token[]): number {
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (SUBORDINATORS.has(token.word)) return -1;
    const before = tokens[i - 1]!;
    // "the cache", "of deploys": a word after a determiner or preposition is a noun.
    if (DETERMINERS.has(before.word) || PHRASE_PREPOSITIONS.has(before.word)) continue;
    if (isVerb(token)) return i;
  }
  return -1;
}

/** Index just past an object noun phrase starting at `from`: up to a value preposition, a clause or a verb. */
function objectEnd(tokens: Token[], from: number): number {
  let i = from;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (VALUE_PREPOSITIONS.has(token.word) || SUBORDINATORS.has(token.word)) break;
    if (i > from && AUXILIARIES.has(token.word)) break;
    i++;
  }
  return i;
}

/** The subject slot of a sentence as [start, end) token indexes, and the main verb's index (-1: none). */
function subjectSlot(tokens: Token[]): { start: number; end: number; verb: number } {
  let first = 0;
  while (first < tokens.length - 1 && ADVERBS.has(tokens[first]!.word)) first++;
  const head = tokens[first];
  if (head === undefined) return { start: 0, end: 0, verb: -1 };
  if (PRONOUNS.has(head.word)) {
    // "We pin zod to 1.2 in ...": what the verb acts on.
    let verb = first + 1;
    while (verb < tokens.length - 1 && ADVERBS.has(tokens[verb]!.word)) verb++;
    return { start: verb + 1, end: objectEnd(tokens, verb + 1), verb };
  }
  const next = tokens[first + 1];
  const imperative =
    isVerb(head) &&
    !AUXILIARIES.has(head.word) &&
    (next === undefined || (!PHRASE_PREPOSITIONS.has(next.word) && !isVerb(next)));
  if (imperative) return { start: first + 1, end: objectEnd(tokens, first + 1), verb: first };
  const verb = mainVerb(tokens);
  return { start: 0, end: verb === -1 ? tokens.length : verb, verb };
}

/** Whether the name at `i` follows a word of being in its clause: "is node:22", "is built from x", "are kept in y". */
function followsBeing(tokens: Token[], i: number): boolean {
  let j = i - 1;
  if (j >= 0 && DETERMINERS.has(tokens[j]!.word)) j--;
  if (j >= 0 && (VALUE_PREPOSITIONS.has(tokens[j]!.word) || PHRASE_PREPOSITIONS.has(tokens[j]!.word))) j--;
  if (j >= 0 && plain(tokens[j]!) && !BEING.has(tokens[j]!.word) && /(?:ed|en|t)$/.test(tokens[j]!.word)) j--;
  if (j >= 0 && tokens[j]!.word === "now") j--;
  return j >= 0 && BEING.has(tokens[j]!.word);
}

/** A statement's first sentence, or its leading label when it opens with one ("Bug in billing-api: ..."). */
function leading(text: string): { label: string | undefined; sentence: string } {
  const sentence = text.split(/[.!?;](?:\s|$)|\n/)[0] ?? text;
  const label = /^\s*([^:`\n]{1,60}):\s/.exec(sentence)?.[1];
  return { label: label !== undefined && label.split(/\s+/).length <= 5 ? label : undefined, sentence };
}

const nameOf = (token: Token) => token.word.replace(/^`|`$/g, "").replace(/\/$/, "");

/** Texts read lately: a memory is keyed when written, then judged against many others. */
const known = new RecentMemo<SubjectNames>(16_384);

/** The names a text gives and those it is about (see the interface); memoised for the texts of a batch. */
export function subjectNames(text: string): SubjectNames {
  return known.get(text, readSubjectNames);
}

function readSubjectNames(text: string): SubjectNames {
  const all = new Set<string>();
  const afterBeing = new Set<string>();
  const spans = new Set<string>();
  let definite = false;
  let oneOfMany = false;
  const subject = new Set<string>();
  const kinds = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?;])\s+|\n+/)) {
    const tokens = tokensOf(sentence);
    tokens.forEach((token, i) => {
      if (!token.name) return;
      all.add(nameOf(token));
      if (token.raw.startsWith("`")) spans.add(nameOf(token));
      if (followsBeing(tokens, i)) afterBeing.add(nameOf(token));
    });
    for (const token of tokens) for (const kind of kindsOfTool(token.word)) kinds.add(`tool:${kind}`);
  }
  const { label, sentence } = leading(text);
  const labelNames = label === undefined ? [] : tokensOf(label).filter((token) => token.name);
  if (labelNames.length > 0) {
    for (const token of labelNames) subject.add(nameOf(token));
    // "Bug in billing-api: ...": the label's words say what kind of statement it is.
    for (const token of tokensOf(label ?? ""))
      if (plain(token) && isContentWord(token.word)) kinds.add(stem(token.word));
  } else {
    const tokens = tokensOf(label === undefined ? sentence : sentence.slice(sentence.indexOf(":") + 1));
    const { start, end, verb } = subjectSlot(tokens);
    const slot = tokens.slice(start, end);
    const last = slot[slot.length - 1];
    definite =
      start === 0 &&
      verb > 0 &&
      slot[0]?.word === "the" &&
      last !== undefined &&
      plain(last) &&
      !/[^s]s$/.test(last.word) &&
      slot.every((token) => !token.name && !/^(?:and|or)$/.test(token.word));
    for (const token of slot) if (token.name) subject.add(nameOf(token));
    const words = slot.filter((token) => plain(token) && isContentWord(token.word) && !ADVERBS.has(token.word));
    if (words[0]) kinds.add(stem(words[0].word));
    if (words.length > 1) kinds.add(stem(words[words.length - 1]!.word));
    oneOfMany = verb >= 0 && HAVING.has(tokens[verb]!.word) && /^(?:a|an|another)$/.test(tokens[verb + 1]?.word ?? "");
    const verbToken = verbOfKind(tokens, verb);
    if (verbToken !== undefined) kinds.add(`verb:${verbToken}`);
  }
  // A statement whose kind was not read is still keyed by its names.
  if (kinds.size === 0) kinds.add("statement");
  return { subject, all, afterBeing, spans, definite, oneOfMany, kinds: [...kinds] };
}

/** The stem of what the main verb says: past a word of being or having to its participle ("was upgraded" -> upgrad). */
function verbOfKind(tokens: Token[], verb: number): string | undefined {
  if (verb < 0) return undefined;
  let i = verb;
  if (AUXILIARIES.has(tokens[i]!.word)) {
    let j = i + 1;
    while (j < tokens.length && ADVERBS.has(tokens[j]!.word)) j++;
    const next = tokens[j];
    if (next && plain(next) && (isVerb(next) || /ed$/.test(next.word))) i = j;
  }
  const word = tokens[i]!.word;
  return BEING.has(word) ? "be" : AUXILIARIES.has(word) ? word : stem(word);
}

/**
 * The keys a memory is indexed under for the subject test: each name it is about (or, when its subject
 * names none, each name it gives) joined with each kind of statement it is. Two memories that may be
 * one fact and its update share a key: the same named thing said in the same kind of statement. Empty
 * when the text names nothing code-like; such a memory is found by its words instead.
 */
export function subjectKeys(text: string): string[] {
  const names = subjectNames(text);
  const about = names.subject.size > 0 ? names.subject : names.all;
  const keys: string[] = [];
  for (const name of about) for (const kind of names.kinds) keys.push(`${name}|${kind}`);
  return keys;
}
