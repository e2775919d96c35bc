import { byScoreDesc } from "../candidate.js";
import type { RecallStage } from "../stage.js";

/** Reranking and dampening look at this many leading candidates (at least 3 k). */
const HEAD = 50;

/**
 * Sorts and keeps the head of the ranking: the stages after it move scores by bounded factors, so
 * only the head can still reach the top k, and only its text is loaded. `minimum`: the reranker's
 * `topN` when one runs.
 */
export function headStage(options: { minimum: number }): RecallStage {
  return {
    name: "head",
    apply(ctx, candidates) {
      candidates.sort(byScoreDesc);
      return candidates.slice(0, Math.max(HEAD, 3 * ctx.k, options.minimum));
    },
  };
}
