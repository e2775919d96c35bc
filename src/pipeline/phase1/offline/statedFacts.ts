import { isTopicWord } from "../../../text/stopWords.js";
import { isAssertion, statementText, withoutLeadIn } from "./userStatements.js";

/** A user's statement of how the project is, or of how it changed. */
export interface StatedFact {
  /** The user's sentence, cleaned of filler: it names the subject and the value itself. */
  text: string;
  /** True when the sentence states a change (the value it replaces may or may not be named). */
  change: boolean;
}

/*
 * How people state project facts in a coding session, as grammar rather than vocabulary: a subject
 * (we, or a noun phrase such as "the API", "our staging DB", `DATABASE_URL`, "Postgres"), then a verb
 * of how things are configured or of how they changed, then the value. A pronoun is no subject: "it
 * now listens on 8080" does not say what listens, so a memory of it could not be found or replaced.
 */

/** Tokens that name a thing by their shape: code, paths, versions, acronyms, CamelCase, quoted names. */
const SHAPED = String.raw`(?:\x60[^\x60]+\x60|"[^"]+"|[A-Z]{2,}[\w.-]*|[a-z]+[A-Z][\w.-]*|[A-Z][a-z]+[A-Z][\w.-]*|[\w-]*\d[\w.:/-]*|[\w-]+[./_][\w./_-]+)`;
/** A value worth remembering: a shaped token, or a capitalised name inside the sentence ("Vitest"). */
const VALUE_TOKEN = new RegExp(String.raw`(?:^|[\s(])(?:${SHAPED}|[A-Z][a-z]+)`);
/** A determiner, then a noun: "this is now set to 8080" starts with a pronoun, not a noun phrase. */
const DETERMINER = String.raw`(?:the|our|this|that|these|those|my|its|their|all|every|each)(?=\s+(?!(?:is|are|was|were|be|been|has|have|had|will|would|can|could|should|shall|may|might|must|does|do|did)\b))`;
const WORD = String.raw`[\w@./:\x60'"#-]+`;
const PRONOUN = String.raw`(?:it|this|that|they|them|he|she|you|there|here|which|what|who|everything|something|nothing|anything|one)\b`;
/** "the API", "our staging database", "this repo's CI", "\x60src/api\x60", "API_PORT". */
const NOUN_PHRASE = String.raw`(?:${DETERMINER}\s+(?:${WORD}\s+){0,4}?${WORD}|${SHAPED}(?:\s+${WORD}){0,2}?)`;
/**
 * Where the verb states a change, any word but a pronoun can be the subject ("Jest was replaced with
 * Vitest", "tests now run under Vitest"); a plain state needs a determiner or a shaped name, since a
 * sentence's first word is capitalised whatever it is ("Docs are built nightly" names nothing).
 */
const CHANGED_SUBJECT = String.raw`(?:${DETERMINER}\s+(?:${WORD}\s+){0,4}?${WORD}|(?!${PRONOUN})(?<bare>${WORD})(?:\s+${WORD}){0,2}?)`;
const WE = String.raw`(?:we|our\s+team|the\s+team|this\s+(?:project|repo(?:sitory)?|codebase))`;
/** A short opening before the subject: "As of today, ...", "Since the last release, ...", "Now ...". */
const OPENING = String.raw`^(?:[^,]{1,40},\s+)?(?:now\s+)?`;
const ADVERBS = String.raw`(?:(?:have|has|had|'ve|just|recently|finally|now|already|fully|officially|completely|also|since|then|all)\s+)*`;

/** Statements of change: the strongest evidence that an older memory on the subject is stale. */
const CHANGE: readonly RegExp[] = [
  // "We moved to pnpm", "we switched from Jest to Vitest", "we migrated the database to Postgres 16".
  new RegExp(
    String.raw`${OPENING}(?:${WE}|I|${CHANGED_SUBJECT})\s+${ADVERBS}(?:moved|migrated|switched|changed|upgraded|downgraded|ported|converted|transitioned|went)\s+(?:\S+\s+){0,4}?(?:from|to|onto|over|away|off)\b\s*\S`,
  ),
  // "We dropped Redux", "we got rid of the Makefile", "we replaced Jest with Vitest".
  new RegExp(
    String.raw`${OPENING}${WE}\s+${ADVERBS}(?:dropped|removed|ditched|deleted|abandoned|retired|deprecated|stopped\s+using|got\s+rid\s+of|replaced|swapped(?:\s+out)?|renamed)\s+\S`,
  ),
  // "Jest was replaced with Vitest", "the port has been changed to 8080", "the API moved to 8080".
  new RegExp(
    String.raw`${OPENING}${CHANGED_SUBJECT}\s+(?:(?:was|were|is|are|has\s+been|have\s+been|got|now)\s+)*(?:replaced|superseded|swapped|renamed|moved|migrated|changed|bumped|upgraded|downgraded|raised|lowered|increased|reduced|switched)\s+(?:\S+\s+){0,2}?(?:with|by|to|from|for|in\s+favou?r\s+of)\b\s*\S`,
  ),
  // "We no longer use npm", "the API no longer listens on 3000", "Redis is no longer needed".
  new RegExp(String.raw`${OPENING}(?:${WE}|${CHANGED_SUBJECT})\s+(?:(?:is|are|was|were)\s+)?no\s+longer\s+\S`),
  // "We don't use Jest anymore", "the API doesn't listen on 3000 any more".
  new RegExp(
    String.raw`${OPENING}(?:${WE}|${CHANGED_SUBJECT})\s+(?:do|does|is|are)(?:\s+not|n't)\s+.{1,60}?\bany\s?more\b`,
  ),
];

/**
 * "X is now Y", "X now listens on Y": a present state marked as new. The value must be named (a
 * number, code, a name), which keeps "the dim is now better" and "it now works" out.
 */
const NOW_STATE = new RegExp(
  String.raw`${OPENING}(?:${WE}|${CHANGED_SUBJECT})\s+(?:(?:is|are|'s)\s+now|now\s+\w+)\s+(?<value>.+)$`,
);

/** Verbs of how a project is set up: what runs where, on what, with what, configured how. */
const SETUP_VERB = String.raw`(?:listens?|runs?|lives?|sits?|uses?|is\s+using|are\s+using|depends?|relies?|connects?|talks?|points?|defaults?|targets?|requires?|reads?|writes?|stores?|loads?|builds?|deploys?|(?:is|are)\s+(?:served|hosted|deployed|stored|kept|configured|defined|located|written|built|set|pinned|bound|exposed|generated|managed|handled|installed|run|tested|published|released|read|loaded))`;

/** "We use MySQL 8 for the database", "we're on Node 20", "we don't use Redux". */
const WE_STATE = new RegExp(
  String.raw`${OPENING}${WE}\s+(?:(?:currently|still|only|mostly|always|also|now)\s+)?(?:use|are\s+(?:(?:currently|still|now|all|also)\s+)?(?:using|on)|run|deploy|host|target|rely\s+on|depend\s+on|store|keep|pin|build\s+with|test\s+with|(?:do\s+not|don't)\s+use)\s+(?<value>(?!(?:it|this|that|them|these|those)\b).+)$`,
);

/** "The API listens on port 3000 locally", "our CI runs on GitHub Actions", "the database is MySQL 8". */
const SUBJECT_STATE = new RegExp(
  String.raw`${OPENING}${NOUN_PHRASE}\s+(?:(?:currently|still|only|always|also)\s+)?(?:${SETUP_VERB}|is|are)\s+(?<value>(?!(?:that|because|why|how|what|not|a\s+bit|too|so|very|really|quite|kind|sort)\b).+)$`,
);

/** "Tests run with Jest", "fixtures live in test/data": a bare subject, but a verb of setup. */
const BARE_SUBJECT_SETUP = new RegExp(
  String.raw`^(?!${PRONOUN})(?<bare>[a-z][\w-]*)(?:\s+[a-z][\w-]*){0,2}?\s+(?:${SETUP_VERB})\s+(?<value>.+)$`,
);

const hasValue = (text: string): boolean => VALUE_TOKEN.test(text);

/**
 * A match whose subject, when it has no determiner, starts with a word that can name something: "now
 * run the tests with pnpm" and "then moved to the next file" are instructions and narration.
 */
function matching(pattern: RegExp, body: string): RegExpExecArray | null {
  const match = pattern.exec(body);
  const bare = match?.groups?.bare;
  return match && (bare === undefined || isTopicWord(bare.toLowerCase().replace(/\W+$/, ""))) ? match : null;
}

/**
 * What one user sentence states about the project, or null. Questions, hypotheticals, plans and
 * requests state nothing ("should we move to pnpm?", "can you switch to pnpm", "we need to migrate").
 */
export function statedFact(sentence: string): StatedFact | null {
  if (!isAssertion(sentence)) return null;
  const cleaned = withoutLeadIn(sentence).replace(/[*_]{2}/g, "");
  if (cleaned.split(/\s+/).length < 3 || cleaned.length > 240) return null;
  const text = statementText(cleaned);
  // The patterns are written in lower case; only the sentence's first letter is folded, since the
  // capitals inside it are what tell a name ("Vitest", "API") from a word.
  const body = (cleaned.charAt(0).toLowerCase() + cleaned.slice(1))
    .replace(/\u2019/g, "'")
    .replace(/\bwe're\b/gi, "we are");
  if (CHANGE.some((pattern) => matching(pattern, body))) return { text, change: true };
  const now = matching(NOW_STATE, body)?.groups?.value;
  if (now !== undefined && hasValue(now)) return { text, change: true };
  // A plain state marked as current ("we are now on Node 22") is a change too.
  const marked = /\bnow\b/.test(body);
  if (WE_STATE.test(body)) return { text, change: marked };
  const value = (SUBJECT_STATE.exec(body) ?? matching(BARE_SUBJECT_SETUP, body))?.groups?.value;
  if (value !== undefined && hasValue(value) && value.split(/\s+/).length <= 12) return { text, change: marked };
  return null;
}

/**
 * The facts of one sentence. Clauses joined by "; " or ", and" that each state a fact are kept apart
 * ("We use MySQL 8 for the database, and the tests run with Jest"): a later change to one of them
 * must be able to replace it without taking the other along.
 */
export function statedFacts(sentence: string): StatedFact[] {
  if (!isAssertion(sentence)) return [];
  const clauses = sentence
    .split(/;\s+|,\s+(?:and|but|while|whereas)\s+/)
    .map((clause) => statedFact(clause))
    .filter((fact): fact is StatedFact => fact !== null);
  if (clauses.length > 1) return clauses;
  const whole = statedFact(sentence);
  return whole ? [whole] : [];
}
