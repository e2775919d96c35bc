import { isContentWordOrName } from "../text/numberedNames.js";
import { stem } from "../text/stem.js";
import { STOP_WORDS } from "../text/stopWords.js";
import { queryTimeTerms } from "../text/temporalTerms.js";
import { words } from "../text/tokenize.js";

export interface AnalyzedQuery {
  raw: string;
  /** Content words as typed (lowercase, possessive dropped), deduplicated, in order. */
  terms: string[];
  /** Porter stems of `terms` (what the index matches), same order. */
  stems: string[];
  /** "Quoted phrases" from the query, lowercased. */
  phrases: string[];
  /** Calendar tokens of the dates the query names (src/text/temporalTerms.ts). */
  timeTerms: string[];
  /** The query words that spelled those dates ("may", "2023", "8"). */
  timeWords: string[];
  /** Whether the question asks for a time ("When did ...?", "What year ...?", "How long ago ...?"). */
  asksWhen: boolean;
  /** Whether the question asks for several things ("What activities does Jane do?", "What kinds of ..."). */
  asksList: boolean;
  /**
   * The nouns the question asks for a kind of ("What kind of art ...?" -> art): like a plural
   * category, the answer names an instance ("a painting").
   */
  kindOf: string[];
}

const ASKS_WHEN =
  /^\W*(?:when\b|(?:what|which|on what|in what)\s+(?:date|day|time|year|month|week|weekend)\b|how long ago\b)/i;

/** "kind of", "types of", "sort of": the noun after it is what the question asks for an instance of. */
const KIND_OF = String.raw`\b(?:kinds?|types?|sorts?) of\b`;
const KIND_OF_NOUN = new RegExp(String.raw`${KIND_OF} (?:(?:a|an|the)\s+)?([a-z][a-z'-]*)`, "gi");

const AUXILIARIES = new Set("do does did is are was were has have had can could would will should".split(" "));
/** Phrasings that ask for several answers whatever the noun: "what kinds of", "in what ways", "both". */
const LIST_PHRASE = new RegExp(String.raw`${KIND_OF}|\bin what ways\b|\bboth\b`, "i");
/** The words of a question opened by "what" or "which". */
const WH_QUESTION = /^\W*(?:what|which)\s+(.*)$/is;

/**
 * A question asks for a list when it says so ("what kinds of", "in what ways", "both") or when its
 * wh-noun phrase ends in a plural ("What *activities* does Jane do?", "Which *cities* has he
 * visited?"). A capitalized word there is a name ("Which Williams was it?"), not a plural.
 */
export function asksForList(query: string): boolean {
  if (LIST_PHRASE.test(query)) return true;
  const rest = WH_QUESTION.exec(query)?.[1]?.split(/\s+/) ?? [];
  // The noun phrase runs up to the first auxiliary, at most four words in.
  const end = rest.slice(0, 5).findIndex((w) => AUXILIARIES.has(w.toLowerCase()));
  if (end < 1) return false;
  const last = rest[end - 1] ?? "";
  return /^[a-z][a-z'-]*[^s']s$/.test(last) && !STOP_WORDS.has(last);
}

function kindsAskedFor(query: string): string[] {
  const nouns = [...query.matchAll(KIND_OF_NOUN)].map((m) => baseWord((m[1] ?? "").toLowerCase()));
  return [...new Set(nouns)].filter((w) => !STOP_WORDS.has(w));
}

/** The word without a possessive "'s" or other apostrophes ("Caroline's" -> caroline). */
function baseWord(word: string): string {
  return word.endsWith("'s") ? word.slice(0, -2) : word.replace(/'/g, "");
}

/**
 * Turns a natural-language query into matchable parts. Stop words and question scaffolding go, so
 * "What did Caroline research?" asks the index for {caroline, research}; explicit "phrases" become
 * phrase matches.
 */
export function analyzeQuery(query: string): AnalyzedQuery {
  const terms: string[] = [];
  const seen = new Set<string>();
  const all = words(query);
  all.forEach((word, i) => {
    const base = baseWord(word);
    // A lone digit is searched only as the number of a numbered name ("service 3"): it says which one.
    if (!isContentWordOrName(all[i - 1], base) || STOP_WORDS.has(word) || seen.has(base)) return;
    seen.add(base);
    terms.push(base);
  });
  const phrases: string[] = [];
  for (const match of query.matchAll(/["\u201c]([^"\u201d]{3,200})["\u201d]/g)) {
    const phrase = words(match[1] ?? "").join(" ");
    if (phrase.includes(" ")) phrases.push(phrase);
  }
  const time = queryTimeTerms(query);
  return {
    raw: query,
    terms,
    stems: terms.map(stem),
    phrases,
    timeTerms: time.terms,
    timeWords: time.words,
    asksWhen: ASKS_WHEN.test(query),
    asksList: asksForList(query),
    kindOf: kindsAskedFor(query),
  };
}
