import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { STOP_WORDS } from "../stopWords.js";
import { words } from "../tokenize.js";

/**
 * A noun -> category resource: for each common noun, the words of its WordNet hypernyms, nearest first
 * ("swimming" -> water sport, sport, recreation; "guitar" -> instrument). Built once by
 * scripts/build-concepts.mjs into concepts.txt next to this file (WordNet's license beside it).
 */
export interface Lexicon {
  /** Category id -> the words that spell it. */
  categories: string[][];
  /** Noun -> category ids per depth (index 0: direct hypernyms). */
  nouns: Map<string, number[][]>;
}

/** Parses the text format written by scripts/build-concepts.mjs. */
export function parseLexicon(text: string): Lexicon {
  const categories: string[][] = [];
  const nouns = new Map<string, number[][]>();
  for (const line of text.split("\n")) {
    // "~" lines are the precomputed category breadths (see shippedCategoryBreadth).
    if (line === "" || line.startsWith("#") || line.startsWith("~")) continue;
    const [head, ...rest] = line.split(" ");
    if (head!.startsWith("=")) {
      categories[Number(head!.slice(1))] = rest;
    } else if (rest[0] !== undefined) {
      nouns.set(
        head!,
        rest[0].split(";").map((level) => (level === "" ? [] : level.split(",").map(Number))),
      );
    }
  }
  return { categories, nouns };
}

const SHIPPED = join(dirname(fileURLToPath(import.meta.url)), "concepts.txt");
let shipped: Lexicon | undefined;

/** The shipped lexicon, parsed on first use (about 1 MB of text, about 200 ms). */
export function shippedLexicon(): Lexicon {
  shipped ??= parseLexicon(readFileSync(SHIPPED, "utf8"));
  return shipped;
}

/** Category word -> nouns reaching it within 1, 2, 3 steps, from the "~" lines leading the file. */
let shippedBreadths: Map<string, number[]> | undefined;
const shippedByDepth = new Map<number, Map<string, number>>();

/**
 * `categoryBreadth` of the shipped lexicon, read from the counts its generator wrote at the head of
 * the file: recall needs only these, and parsing every noun for them cost a CLI recall a quarter of a
 * second.
 */
export function shippedCategoryBreadth(depth: number): Map<string, number> {
  const known = shippedByDepth.get(depth);
  if (known) return known;
  if (!shippedBreadths) {
    shippedBreadths = new Map();
    const text = readFileSync(SHIPPED, "utf8");
    for (let start = 0; start < text.length; ) {
      const end = text.indexOf("\n", start);
      const line = text.slice(start, end < 0 ? text.length : end);
      start = end < 0 ? text.length : end + 1;
      if (line.startsWith("#")) continue;
      if (!line.startsWith("~")) break;
      const [word, ...counts] = line.slice(1).split(" ");
      shippedBreadths.set(word!, counts.map(Number));
    }
  }
  const out = new Map<string, number>();
  if (depth > 0) {
    for (const [word, counts] of shippedBreadths) {
      const count = counts[Math.min(depth, counts.length) - 1]!;
      if (count > 0) out.set(word, count);
    }
  }
  shippedByDepth.set(depth, out);
  return out;
}

/** WordNet's regular plural rules: suffix -> singular ending. */
const PLURAL_RULES: [string, string][] = [
  ["ies", "y"],
  ["ses", "s"],
  ["xes", "x"],
  ["zes", "z"],
  ["ches", "ch"],
  ["shes", "sh"],
  ["men", "man"],
  ["s", ""],
];

/** The singular of a plural word form that `known` accepts, by WordNet's regular rules. */
function singularIn(word: string, known: (w: string) => boolean): string | undefined {
  for (const [suffix, replacement] of PLURAL_RULES) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
      const base = word.slice(0, -suffix.length) + replacement;
      if (known(base)) return base;
    }
  }
  return undefined;
}

/** The noun a word form is listed under: itself, or its singular by WordNet's regular noun rules. */
export function nounOf(word: string, lexicon: Lexicon): string | undefined {
  if (lexicon.nouns.has(word)) return word;
  return singularIn(word, (w) => lexicon.nouns.has(w));
}

const breadths = new WeakMap<Lexicon, Map<number, Map<string, number>>>();

/**
 * How many of the lexicon's nouns reach each category word within `depth` hypernym steps: the
 * breadth of a category ("activity" covers hundreds of nouns, "pottery" a couple). Computed once per
 * lexicon and depth.
 */
export function categoryBreadth(lexicon: Lexicon, depth: number): Map<string, number> {
  const byDepth = breadths.get(lexicon) ?? breadths.set(lexicon, new Map()).get(lexicon)!;
  const known = byDepth.get(depth);
  if (known) return known;
  const out = new Map<string, number>();
  for (const levels of lexicon.nouns.values()) {
    const seen = new Set<string>();
    for (const level of levels.slice(0, depth)) {
      for (const id of level) for (const word of lexicon.categories[id] ?? []) seen.add(word);
    }
    for (const word of seen) out.set(word, (out.get(word) ?? 0) + 1);
  }
  byDepth.set(depth, out);
  return out;
}

/**
 * The query words that name a broad category in the plural ("what activities ...", "which cities
 * ..."), each with its singular: a plural asks for instances, and the instances' memories carry the
 * category in their concept column. A word counts when its singular reaches at least `minBreadth` of
 * the lexicon's nouns (`breadth`: see `categoryBreadth`).
 */
export function pluralCategories(
  terms: string[],
  breadth: ReadonlyMap<string, number>,
  minBreadth: number,
): { word: string; category: string }[] {
  const out: { word: string; category: string }[] = [];
  for (const word of terms) {
    const category = singularIn(word, (w) => (breadth.get(w) ?? 0) >= minBreadth);
    if (category !== undefined) out.push({ word, category });
  }
  return out;
}

/**
 * The category words of a text's nouns up to `depth` hypernym steps, distinct, nearest categories of
 * the earliest words first, leaving out words the text itself contains. "We went swimming and to a
 * concert" -> sport, recreation, performance, show ... A pure function of the text and the lexicon.
 */
export function conceptWords(text: string, lexicon: Lexicon, depth: number): string[] {
  if (depth <= 0) return [];
  const own = new Set<string>();
  const nouns: string[] = [];
  for (const word of words(text)) {
    const base = word.endsWith("'s") ? word.slice(0, -2) : word.replace(/'/g, "");
    own.add(base);
    if (base.length < 3 || STOP_WORDS.has(base)) continue;
    const noun = nounOf(base, lexicon);
    if (noun !== undefined) {
      own.add(noun);
      nouns.push(noun);
    }
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const noun of new Set(nouns)) {
    const levels = lexicon.nouns.get(noun)!;
    for (const level of levels.slice(0, depth)) {
      for (const id of level) {
        for (const category of lexicon.categories[id] ?? []) {
          if (own.has(category) || seen.has(category)) continue;
          seen.add(category);
          out.push(category);
        }
      }
    }
  }
  return out;
}
