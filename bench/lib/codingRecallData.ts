import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One memory of the coding-recall corpus (../shared/bench/coding-recall/corpus.jsonl). */
export interface CodingMemory {
  id: string;
  scope: string;
  type: string;
  content: string;
  occurredAt: string;
}

export const codingCategories = ["exact", "paraphrase", "preference", "update", "scope", "none"] as const;
export type CodingCategory = (typeof codingCategories)[number];

export interface CodingQuery {
  id: string;
  scope: string;
  query: string;
  /** Acceptable memories (any one counts); empty for `none`. */
  gold: string[];
  category: CodingCategory;
  /** For `update`: the older memory the gold one replaces. */
  stale?: string[];
}

export interface CodingRecallSet {
  corpus: CodingMemory[];
  queries: CodingQuery[];
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);

/**
 * The set in `dir`: its corpus and every question (`queries.jsonl`; the set keeps no development split),
 * or null when the folder is not there (a checkout without ../shared).
 */
export function loadCodingRecall(dir: string): CodingRecallSet | null {
  const corpusFile = join(dir, "corpus.jsonl");
  if (!existsSync(corpusFile)) return null;
  const corpus = readJsonl<CodingMemory>(corpusFile);
  const queries = readJsonl<CodingQuery>(join(dir, "queries.jsonl"));
  const ids = new Set(corpus.map((m) => m.id));
  for (const q of queries) {
    for (const id of [...q.gold, ...(q.stale ?? [])]) {
      if (!ids.has(id)) throw new Error(`${q.id} names ${id}, which the corpus does not hold`);
    }
    if (!codingCategories.includes(q.category)) throw new Error(`${q.id}: unknown category ${q.category}`);
  }
  return { corpus, queries };
}
