import { queryTimeTerms } from "../memory/temporalTerms.js";
import { stem } from "./stem.js";
import { STOP_WORDS } from "./stopWords.js";
import { words } from "./tokenize.js";

export interface AnalyzedQuery {
  raw: string;
  /** Content words as typed (lowercase, possessive dropped), deduplicated, in order. */
  terms: string[];
  /** Porter stems of `terms` (what the index matches), same order. */
  stems: string[];
  /** Words written with a capital inside the query: names, products, places. */
  entities: string[];
  /** "Quoted phrases" from the query, lowercased. */
  phrases: string[];
  /** Calendar tokens of the dates the query names (src/memory/temporalTerms.ts). */
  timeTerms: string[];
  /** The query words that spelled those dates ("may", "2023", "8"). */
  timeWords: string[];
  /** Whether the question asks for a time ("When did ...?", "What year ...?", "How long ago ...?"). */
  asksWhen: boolean;
}

const ASKS_WHEN =
  /^\W*(?:when\b|(?:what|which|on what|in what)\s+(?:date|day|time|year|month|week|weekend)\b|how long ago\b)/i;

/** Question openers are capitalized by grammar; they are never the entity being asked about. */
function baseWord(word: string): string {
  return word.endsWith("'s") ? word.slice(0, -2) : word.replace(/'/g, "");
}

/**
 * Turns a natural-language query into matchable parts. Stop words and question scaffolding go, so
 * "What did Caroline research?" asks the index for {caroline, research}; capitalized words inside the
 * sentence are kept as entities (they are usually the subject and are weighted up in the keyword
 * query); explicit "phrases" become phrase matches.
 */
export function analyzeQuery(query: string): AnalyzedQuery {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const word of words(query)) {
    const base = baseWord(word);
    if (base.length < 2 || STOP_WORDS.has(base) || STOP_WORDS.has(word) || seen.has(base)) continue;
    seen.add(base);
    terms.push(base);
  }
  const entities: string[] = [];
  for (const match of query.matchAll(/(?<=\S\s+)([A-Z][\p{L}\p{N}]+)/gu)) {
    const base = baseWord((match[1] ?? "").toLowerCase());
    if (seen.has(base) && !entities.includes(base)) entities.push(base);
  }
  const phrases: string[] = [];
  for (const match of query.matchAll(/["“]([^"”]{3,200})["”]/g)) {
    const phrase = words(match[1] ?? "").join(" ");
    if (phrase.includes(" ")) phrases.push(phrase);
  }
  const time = queryTimeTerms(query);
  return {
    raw: query,
    terms,
    stems: terms.map(stem),
    entities,
    phrases,
    timeTerms: time.terms,
    timeWords: time.words,
    asksWhen: ASKS_WHEN.test(query),
  };
}
