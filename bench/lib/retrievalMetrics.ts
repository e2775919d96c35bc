/** Per-question retrieval metrics over gold evidence ids (reference/field.md §3.1). */
export interface QuestionScore {
  recallAt5: number;
  recallAt10: number;
  reciprocalRank: number;
}

/** `ranked` is the retrieved ids in rank order, possibly with duplicates (deduplicated here, rank order kept). */
export function scoreQuestion(ranked: string[], gold: string[]): QuestionScore {
  const seen: string[] = [];
  for (const id of ranked) if (!seen.includes(id)) seen.push(id);
  const goldSet = new Set(gold);
  const recallAt = (k: number) => seen.slice(0, k).filter((id) => goldSet.has(id)).length / goldSet.size;
  const first = seen.findIndex((id) => goldSet.has(id));
  return { recallAt5: recallAt(5), recallAt10: recallAt(10), reciprocalRank: first < 0 ? 0 : 1 / (first + 1) };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index] ?? 0;
}

export interface Summary {
  "recall@5": number;
  "recall@10": number;
  mrr: number;
  p50ms: number;
  p95ms: number;
  n: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function summarize(scores: QuestionScore[], latenciesMs: number[]): Summary {
  const mean = (pick: (s: QuestionScore) => number) =>
    scores.length === 0 ? 0 : scores.reduce((sum, s) => sum + pick(s), 0) / scores.length;
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    "recall@5": round(mean((s) => s.recallAt5)),
    "recall@10": round(mean((s) => s.recallAt10)),
    mrr: round(mean((s) => s.reciprocalRank)),
    p50ms: round(percentile(sorted, 0.5)),
    p95ms: round(percentile(sorted, 0.95)),
    n: scores.length,
  };
}
