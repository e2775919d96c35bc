import type { CodingQuery } from "./codingRecallData.js";

/** A ranked hit: the corpus id of the memory and its score (calibrated for cairn, raw BM25 otherwise). */
export interface RankedHit {
  ref: string;
  score: number;
}

export interface CodingScore {
  category: CodingQuery["category"];
  r1: number | null;
  r5: number | null;
  rr: number | null;
  /** `update` only: the gold (newer) memory ranks above the stale one, or the stale one is absent. */
  newerAboveOlder: boolean | null;
  newerFirst: boolean | null;
  /** `none` only: some result scored at or above the confidence threshold. */
  confident: boolean | null;
  empty: boolean;
}

/** A `none`-query result at or above this calibrated score counts as a confident (false) answer. */
export const CONFIDENT_SCORE = 0.5;

export function scoreCodingQuery(query: CodingQuery, hits: RankedHit[]): CodingScore {
  const refs = hits.map((h) => h.ref);
  const gold = new Set(query.gold);
  const rankOf = (id: string) => refs.indexOf(id) + 1 || null;
  const firstGold = refs.findIndex((ref) => gold.has(ref)) + 1;
  const hasGold = gold.size > 0;
  const at = (k: number) => (hasGold ? (firstGold > 0 && firstGold <= k ? 1 : 0) : null);
  let newerAboveOlder: boolean | null = null;
  let newerFirst: boolean | null = null;
  if (query.category === "update") {
    const newer = rankOf(query.gold[0]!);
    const older = query.stale?.[0] ? rankOf(query.stale[0]) : null;
    newerAboveOlder = newer !== null && (older === null || newer < older);
    newerFirst = newer === 1;
  }
  return {
    category: query.category,
    r1: at(1),
    r5: at(5),
    rr: hasGold ? (firstGold > 0 ? 1 / firstGold : 0) : null,
    newerAboveOlder,
    newerFirst,
    confident: query.category === "none" ? hits.some((h) => h.score >= CONFIDENT_SCORE) : null,
    empty: hits.length === 0,
  };
}

export interface CodingSummary {
  n: number;
  r1?: number;
  r5?: number;
  mrr?: number;
  newerAboveOlder?: number;
  newerFirst?: number;
  /** `none`: the share of queries answered with a confident result. */
  confident?: number;
  /** `none`: the share of queries that returned nothing. */
  empty?: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
const bit = (b: boolean | null) => (b ? 1 : 0);

function summarizeGroup(scores: CodingScore[], name: string): CodingSummary {
  const row: CodingSummary = { n: scores.length };
  if (name !== "none") {
    row.r1 = mean(scores.map((s) => s.r1 ?? 0));
    row.r5 = mean(scores.map((s) => s.r5 ?? 0));
    row.mrr = mean(scores.map((s) => s.rr ?? 0));
  }
  if (name === "update") {
    row.newerAboveOlder = mean(scores.map((s) => bit(s.newerAboveOlder)));
    row.newerFirst = mean(scores.map((s) => bit(s.newerFirst)));
  }
  if (name === "none") {
    row.confident = mean(scores.map((s) => bit(s.confident)));
    row.empty = mean(scores.map((s) => bit(s.empty)));
  }
  return row;
}

/** Per category, plus `overall` over every query that has an answer (all but `none`). */
export function summarizeCoding(scores: CodingScore[]): Record<string, CodingSummary> {
  const out: Record<string, CodingSummary> = {};
  const categories = [...new Set(scores.map((s) => s.category))];
  for (const category of categories) {
    out[category] = summarizeGroup(
      scores.filter((s) => s.category === category),
      category,
    );
  }
  out.overall = summarizeGroup(
    scores.filter((s) => s.category !== "none"),
    "overall",
  );
  return out;
}
