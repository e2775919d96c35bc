import { statementSentences } from "../../text/statementSentences.js";
import { words } from "../../text/tokenize.js";

/**
 * What a statement of change says: "moved from X to Y", "replaced X with Y", "X is gone" make X
 * obsolete (and Y, when named, current); "X is now Y", "X was ported to Y" give the subject X a new
 * value Y without naming the old one.
 */
export type ChangeStatement =
  | {
      kind: "obsolete";
      obsolete: string;
      replacement?: string;
      startsSentence?: boolean;
      /** What the replacement is for, when the sentence says: "for the job queue" of "... with Postgres for the job queue". */
      purpose?: string;
    }
  | {
      kind: "reassigned";
      subject: string;
      replacement: string;
      startsSentence?: boolean;
      /** The verb that links them when it is not "is" ("goes through" of "deploys now go through Y"). */
      relation?: string;
    };

/**
 * One word of a named thing: letters, digits and the punctuation of names, paths and versions, maybe
 * quoted; a colon only inside it (`localhost:3000`), since one after it ends a clause.
 */
const TOKEN = String.raw`[\`"']?[\w@./+#~-]+(?::[\w@./+#~-]+)*[\`"']?`;
/** Up to four words, as few as reach the boundary that follows. */
const PHRASE = String.raw`(${TOKEN}(?:\s+${TOKEN}){0,3}?)`;
/** Up to four words just before what follows (a clause opener's comma stops it). */
const PHRASE_BEFORE = String.raw`(${TOKEN}(?:\s+${TOKEN}){0,3})`;
/** Where a named thing ends: a preposition that starts the next part, a conjunction, punctuation, the end. */
const END = String.raw`(?=\s+(?:to|with|by|for|in\s+favou?r\s+of|and|but|because|since|as|from|on|in|at|instead|anymore|any\s+more|now|last|this|yesterday|recently|earlier|ago|when|after|before|so|which|that|who)(?![\w-])|\s*[,;!?()]|:(?=\s)|\s*\.(?:\s|$)|\s*$)`;
const BE = String.raw`(?:was|were|is|are|has\s+been|have\s+been|got|had\s+been)`;
/** A past "be": "X is replaced by a fake in tests" describes a mechanism, "X was replaced by Y" a change. */
const WAS = String.raw`(?:was|were|has\s+been|have\s+been|got|had\s+been)`;

interface Pattern {
  /**
   * Words the pattern cannot match without (case aside): a sentence without them skips the pattern,
   * whose leading phrase makes it try every position of the sentence.
   */
  cue: RegExp;
  re: RegExp;
  /** The obsolete thing or the subject is the phrase that opens the match (its capital may be grammar). */
  leads?: boolean;
  read: (match: RegExpMatchArray) => ChangeStatement | undefined;
}

/** Conjunctions and pronouns: a phrase of these alone names no thing ("So instead of retrying, ..."). */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  "but and or so yet then nor i we you he she it they me us them this that these those there here".split(" "),
);
const names = (phrase: string) => words(phrase).some((word) => !FUNCTION_WORDS.has(word));

const obsolete = (x: string | undefined, y?: string): ChangeStatement | undefined =>
  x && names(x) && (y === undefined || names(y))
    ? { kind: "obsolete", obsolete: x, ...(y ? { replacement: y } : {}) }
    : undefined;

const PATTERNS: readonly Pattern[] = [
  // "moved/migrated/switched (the build) from X to Y", "went from X to Y", "raised the timeout from 30s to 60s"
  {
    cue: /from/i,
    re: new RegExp(
      String.raw`\b(?:moved|moving|migrated|migrating|switched|switching|changed|converted|ported|transitioned|upgraded|downgraded|went|going|raised|bumped|increased|decreased|lowered|reduced)\s+(?:over\s+)?(?:\S+\s+){0,3}?from\s+${PHRASE}\s+(?:over\s+|back\s+)?(?:to|onto|into)\s+${PHRASE}${END}`,
      "i",
    ),
    read: (m) => obsolete(m[1], m[2]),
  },
  // "replaced X with/by Y"
  {
    cue: /replac/i,
    re: new RegExp(String.raw`\breplac(?:ed|ing|e)\s+${PHRASE}\s+(?:with|by)\s+${PHRASE}${END}`, "i"),
    read: (m) => obsolete(m[1], m[2]),
  },
  // "X was replaced by/with Y", "X has been superseded by Y"
  {
    cue: /replaced|superseded/i,
    leads: true,
    re: new RegExp(
      String.raw`${PHRASE_BEFORE}\s+${WAS}\s+(?:replaced|superseded)\s+(?:with|by)\s+${PHRASE}${END}`,
      "i",
    ),
    read: (m) => obsolete(m[1], m[2]),
  },
  // "pnpm replaced npm", "Vitest has replaced Jest": the active form, the new thing first. Not "replaced
  // X with Y" (read above), and a pronoun as the new thing names nothing ("we replaced npm").
  {
    cue: /replace|supersede/i,
    re: new RegExp(
      String.raw`${PHRASE_BEFORE}\s+(?:has\s+|have\s+)?(?:replaced|replaces|superseded|supersedes)\s+(?![^.;]*\b(?:with|by)\s)${PHRASE}${END}`,
      "i",
    ),
    read: (m) => obsolete(m[2], m[1]),
  },
  // "dropped X (for Y)", "removed X", "got rid of X", "stopped using X", "no longer use X", "ditched X in favour of Y"
  {
    cue: /dropped|removed|ditched|deprecated|retired|abandoned|rid|stopped|longer|away/i,
    re: new RegExp(
      // Not "a removed block" (an adjective), not "removed from go.mod" or "retired during the cleanup"
      // (a preposition: no object).
      String.raw`(?<!\b(?:a|an|the)\s)\b(?:dropped|removed|ditched|deprecated|retired|abandoned|got\s+rid\s+of|stopped\s+using|no\s+longer\s+(?:use|uses|using|used|need|needs|run|runs)|moved\s+away\s+from|migrated\s+away\s+from|switched\s+away\s+from)\s+(?!(?:from|in|to|on|at|by|into|during|after|before|for|since|last|this|when|because|as)\s)(?:support\s+for\s+|the\s+use\s+of\s+|use\s+of\s+)?${PHRASE}${END}(?:\s+in\s+favou?r\s+of\s+${PHRASE}${END})?`,
      "i",
    ),
    read: (m) => obsolete(m[1], m[2]),
  },
  // "don't use X anymore": without "anymore" it is a standing rule, not a change
  {
    cue: /any/i,
    re: new RegExp(
      String.raw`\b(?:don'?t|do\s+not|doesn'?t|does\s+not|aren'?t|are\s+not)\s+(?:use|using|need|run)\s+${PHRASE}\s+(?:anymore|any\s+more)\b`,
      "i",
    ),
    read: (m) => obsolete(m[1]),
  },
  // "use Y instead of X", "Y rather than X"
  {
    cue: /instead|rather|place/i,
    re: new RegExp(
      String.raw`${PHRASE_BEFORE}\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+${PHRASE}${END}`,
      "i",
    ),
    read: (m) => obsolete(m[2], m[1]),
  },
  // "use Y, not X", "always run Y, not X": the imperative choice of "Y instead of X". Only after a verb
  // of choice: ", not" is also plain contrast ("a bug in the parser, not the lexer").
  {
    cue: /,\s*not/i,
    re: new RegExp(
      String.raw`(?:^|[;:]\s*)(?:always\s+)?(?:use|prefer|run|install\s+with|build\s+with|deploy\s+with|test\s+with)\s+${PHRASE},\s*not\s+${PHRASE}${END}`,
      "i",
    ),
    read: (m) => obsolete(m[2], m[1]),
  },
  // "X is gone", "X was removed", "X is no longer used", "X is deprecated"
  {
    cue: /gone|removed|dropped|deleted|deprecated|retired|obsolete|longer|anymore/i,
    leads: true,
    re: new RegExp(
      String.raw`${PHRASE_BEFORE}\s+(?:${BE}\s+(?:gone|removed|dropped|deleted|deprecated|retired|obsolete|no\s+longer\s+(?:used|needed|supported|in\s+use))|(?:is|are)\s+not\s+used\s+anymore)${END}`,
      "i",
    ),
    read: (m) => obsolete(m[1]),
  },
  // "X was ported/moved/migrated/rewritten to Y": X keeps existing, its value changes
  {
    cue: /ported|moved|migrated|rewritten|converted|switched|changed|upgraded|bumped|postponed|rescheduled|pushed|delayed/i,
    leads: true,
    re: new RegExp(
      String.raw`${PHRASE_BEFORE}\s+${BE}\s+(?:ported|moved|migrated|rewritten|converted|switched|changed|upgraded|bumped|postponed|rescheduled|pushed\s+back|delayed)\s+(?:over\s+)?(?:to|in|into|onto|until)\s+${PHRASE}${END}`,
      "i",
    ),
    read: (m) => (m[1] && m[2] ? { kind: "reassigned", subject: m[1], replacement: m[2] } : undefined),
  },
  // "the release moved to March 10", "the default branch changed to main": the same change, said of X
  // itself. A pronoun or "we" as X names nothing ("we moved to pnpm"), and reassigned() ignores it.
  {
    cue: /moved|changed|switched|slipped|shifted/i,
    leads: true,
    re: new RegExp(
      String.raw`${PHRASE_BEFORE}\s+(?:moved|changed|switched|slipped|shifted)\s+(?:over\s+)?(?:to|onto)\s+${PHRASE}${END}`,
      "i",
    ),
    read: (m) =>
      m[1] && m[2] && !/\b(?:from|we|i|you|they|it)\b/i.test(m[1])
        ? { kind: "reassigned", subject: m[1], replacement: m[2] }
        : undefined,
  },
  // "we moved the API to port 8080", "changed the default timeout to 30s": the active "X was moved to Y".
  // Not "moved from X to Y" (the first pattern), "moved away from X", "moved on to", "switched back to".
  {
    cue: /moved|migrated|switched|changed|converted|ported|upgraded|downgraded|bumped|pinned|pointed/i,
    re: new RegExp(
      String.raw`\b(?:moved|migrated|switched|changed|converted|ported|upgraded|downgraded|bumped|pinned|pointed)\s+(?!(?:from|away|over|on|back|to|it|them|this|that)\s)${PHRASE}\s+(?:over\s+|back\s+)?(?:to|onto|into)\s+${PHRASE}${END}`,
      "i",
    ),
    read: (m) =>
      m[1] && m[2] && !/\bfrom\b/i.test(m[1]) ? { kind: "reassigned", subject: m[1], replacement: m[2] } : undefined,
  },
  // "X is now Y", "X now uses Y", "X now runs on / with Y", "X now goes through Y"
  {
    cue: /now/i,
    leads: true,
    re: new RegExp(
      String.raw`${PHRASE_BEFORE}\s+(?:(?:is|are)\s+now|now\s+(?:is|are|(uses?|runs?\s+(?:on|with|through|via)|builds?\s+with|deploys?\s+(?:to|with|through|via)|goe?s?\s+through|lives?\s+in|listens?\s+on|points?\s+to|defaults?\s+to)))\s+${PHRASE}${END}`,
      "i",
    ),
    read: (m) =>
      m[1] && m[3]
        ? { kind: "reassigned", subject: m[1], replacement: m[3], ...(m[2] ? { relation: m[2].toLowerCase() } : {}) }
        : undefined,
  },
];

/** Strips the quotes and trailing punctuation a captured phrase may carry. */
function clean(phrase: string | undefined): string | undefined {
  const out = phrase?.replace(/[.,;:!?]+$/, "").trim();
  return out && out.length > 0 ? out : undefined;
}

/** Every statement of change the text makes, in the order of the patterns. */
export function changeStatements(text: string): ChangeStatement[] {
  const out: ChangeStatement[] = [];
  for (const sentence of statementSentences(text)) {
    for (const { cue, re, read, leads } of PATTERNS) {
      if (!cue.test(sentence)) continue;
      const match = sentence.match(re);
      const statement = match ? read(match) : undefined;
      if (!match || !statement) continue;
      const startsSentence = leads === true && sentence.slice(0, match.index).trim() === "";
      if (statement.kind === "obsolete") {
        const y = clean(statement.replacement);
        const purpose = y ? purposeAfter(sentence.slice((match.index ?? 0) + match[0].length)) : undefined;
        // "the Mocha and Chai setup is gone": each of the things listed is obsolete on its own.
        (statement.obsolete.split(/\s+(?:and|or)\s+|,\s*/) ?? []).forEach((part, index) => {
          const x = clean(part);
          if (x)
            out.push({
              kind: "obsolete",
              obsolete: x,
              ...(y ? { replacement: y } : {}),
              ...(purpose ? { purpose } : {}),
              startsSentence: startsSentence && index === 0,
            });
        });
      } else {
        const x = clean(statement.subject);
        const y = clean(statement.replacement);
        if (x && y) out.push({ ...statement, subject: x, replacement: y, startsSentence });
      }
    }
  }
  return out;
}

/**
 * What a replacement is for, read from the words after it: "for the job queue", "for installs", "in
 * the frontend". Not a time or a quantifier ("for good", "for now", "for every command"), which
 * restrict nothing; the phrase stops where the clause does.
 */
function purposeAfter(rest: string): string | undefined {
  const match = /^\s+((?:for|in\s+(?:the|our))\s+[^,;:.!?()]+)/i.exec(rest);
  const phrase = match?.[1]?.split(/\s+(?:and|but|because|since|so|which|that|as|after|before|when)\s/i)[0]?.trim();
  const restrictsNothing = /^for\s+(?:good|now|ever|a\s+while|the\s+time\s+being|every|all|each|any|everything)\b/i;
  return phrase && !restrictsNothing.test(phrase) ? phrase : undefined;
}
