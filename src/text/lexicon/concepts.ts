import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { STOP_WORDS } from "../stopWords.js";
import { words } from "../tokenize.js";
import { compareKey, lineEnd, searchLines } from "./sortedLines.js";

/**
 * A noun -> category resource: for each common noun, the words of its WordNet hypernyms, nearest first
 * ("swimming" -> water sport, sport, recreation; "guitar" -> instrument). Built once by
 * scripts/build-concepts.mjs into concepts.txt next to this file (WordNet's license beside it).
 */
export interface Lexicon {
  /** The category ids per depth of a listed noun (index 0: direct hypernyms), or undefined. */
  levelsOf(noun: string): readonly (readonly number[])[] | undefined;
  /** The words that spell a category ([] for an unknown id). */
  wordsOf(category: number): readonly string[];
}

/** A lexicon parsed whole into maps: small hand-made ones, and the breadth computation over every noun. */
export interface ParsedLexicon extends Lexicon {
  /** Category id -> the words that spell it. */
  categories: string[][];
  /** Noun -> category ids per depth (index 0: direct hypernyms). */
  nouns: Map<string, number[][]>;
}

/** Parses the text format written by scripts/build-concepts.mjs. */
export function parseLexicon(text: string): ParsedLexicon {
  const categories: string[][] = [];
  const nouns = new Map<string, number[][]>();
  for (const line of text.split("\n")) {
    // "~" lines are the precomputed category breadths (see shippedCategoryBreadth).
    if (line === "" || line.startsWith("#") || line.startsWith("~")) continue;
    const [head, ...rest] = line.split(" ");
    if (head!.startsWith("=")) {
      categories[Number(head!.slice(1))] = rest;
    } else if (rest[0] !== undefined) {
      nouns.set(head!, parseLevels(rest[0]));
    }
  }
  return {
    categories,
    nouns,
    levelsOf: (noun) => nouns.get(noun),
    wordsOf: (category) => categories[category] ?? [],
  };
}

function parseLevels(field: string): number[][] {
  return field.split(";").map((level) => (level === "" ? [] : level.split(",").map(Number)));
}

/** The file the shipped lexicon is read from. */
export const shippedLexiconPath = join(dirname(fileURLToPath(import.meta.url)), "concepts.txt");

/**
 * The shipped file's three sections, each sorted by its key: "~word" breadth lines by word, "=id"
 * categories by number, noun lines by word (scripts/build-concepts.mjs writes them so). Lookups
 * binary-search the raw bytes: reading the file takes about a millisecond, parsing all of it took a
 * command a fifth of a second.
 */
interface ShippedFile {
  buffer: Buffer;
  breadths: { start: number; end: number };
  categories: { start: number; end: number };
  nouns: { start: number; end: number };
}

let shippedFile: ShippedFile | undefined;

function readShipped(): ShippedFile {
  if (shippedFile) return shippedFile;
  const buffer = readFileSync(shippedLexiconPath);
  const sectionStart = (marker: string) => {
    const at = buffer.indexOf(`\n${marker}`);
    return at < 0 ? buffer.length : at + 1;
  };
  const breadthStart = sectionStart("~");
  const categoryStart = sectionStart("=");
  const lastCategory = buffer.lastIndexOf("\n=");
  const nounStart = lastCategory < 0 ? categoryStart : Math.min(buffer.length, lineEnd(buffer, lastCategory + 1) + 1);
  shippedFile = {
    buffer,
    breadths: { start: breadthStart, end: Math.max(breadthStart, categoryStart) },
    categories: { start: categoryStart, end: nounStart },
    nouns: { start: nounStart, end: buffer.length },
  };
  return shippedFile;
}

/** The text after a line's key and one space, up to the next space (undefined when there is none). */
function firstField(buffer: Buffer, lineStart: number): string | undefined {
  const end = lineEnd(buffer, lineStart);
  const space = buffer.indexOf(32, lineStart);
  if (space < 0 || space >= end) return undefined;
  const next = buffer.indexOf(32, space + 1);
  return buffer.toString("latin1", space + 1, next < 0 || next > end ? end : next);
}

function compareId(buffer: Buffer, at: number, id: number): number {
  let value = 0;
  for (let p = at; p < buffer.length && buffer[p]! >= 48 && buffer[p]! <= 57; p++) value = value * 10 + buffer[p]! - 48;
  return id - value;
}

let shipped: Lexicon | undefined;

/**
 * The shipped lexicon. Each lookup binary-searches the file; nouns and categories found are kept
 * (bounded by the file: 45,000 nouns, 11,000 categories), words that are not nouns are not.
 */
export function shippedLexicon(): Lexicon {
  if (shipped) return shipped;
  const file = readShipped();
  const { buffer } = file;
  const levels = new Map<string, number[][]>();
  const categories = new Map<number, string[]>();
  shipped = {
    levelsOf(noun) {
      const known = levels.get(noun);
      if (known) return known;
      const at = searchLines(buffer, file.nouns, (line) => compareKey(buffer, line, noun));
      const field = at < 0 ? undefined : firstField(buffer, at);
      if (field === undefined) return undefined;
      const parsed = parseLevels(field);
      levels.set(noun, parsed);
      return parsed;
    },
    wordsOf(category) {
      const known = categories.get(category);
      if (known) return known;
      if (!Number.isInteger(category) || category < 0) return [];
      const at = searchLines(buffer, file.categories, (line) => compareId(buffer, line + 1, category));
      if (at < 0) return [];
      const spelled = buffer.toString("latin1", at, lineEnd(buffer, at)).split(" ").slice(1);
      categories.set(category, spelled);
      return spelled;
    },
  };
  return shipped;
}

/** How many nouns reach a category word (`categoryBreadth`); only lookups, so a Map serves as well. */
export interface CategoryBreadth {
  get(word: string): number | undefined;
}

const shippedByDepth = new Map<number, CategoryBreadth>();

/**
 * `categoryBreadth` of the shipped lexicon, read from the counts its generator wrote in the "~" lines
 * of the file: recall needs only these, for the few words of a question.
 */
export function shippedCategoryBreadth(depth: number): CategoryBreadth {
  const known = shippedByDepth.get(depth);
  if (known) return known;
  const breadth: CategoryBreadth = {
    get(word) {
      if (depth <= 0) return undefined;
      const file = readShipped();
      const { buffer } = file;
      const at = searchLines(buffer, file.breadths, (line) => compareKey(buffer, line + 1, word));
      if (at < 0) return undefined;
      const counts = buffer.toString("latin1", at, lineEnd(buffer, at)).split(" ").slice(1).map(Number);
      const count = counts[Math.min(depth, counts.length) - 1]!;
      return count > 0 ? count : undefined;
    },
  };
  shippedByDepth.set(depth, breadth);
  return breadth;
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
  const listed = (w: string) => lexicon.levelsOf(w) !== undefined;
  if (listed(word)) return word;
  return singularIn(word, listed);
}

const breadths = new WeakMap<ParsedLexicon, Map<number, Map<string, number>>>();

/**
 * How many of the lexicon's nouns reach each category word within `depth` hypernym steps: the
 * breadth of a category ("activity" covers hundreds of nouns, "pottery" a couple). Computed once per
 * lexicon and depth.
 */
export function categoryBreadth(lexicon: ParsedLexicon, depth: number): Map<string, number> {
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
  breadth: CategoryBreadth,
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
    const levels = lexicon.levelsOf(noun)!;
    for (const level of levels.slice(0, depth)) {
      for (const id of level) {
        for (const category of lexicon.wordsOf(id)) {
          if (own.has(category) || seen.has(category)) continue;
          seen.add(category);
          out.push(category);
        }
      }
    }
  }
  return out;
}
