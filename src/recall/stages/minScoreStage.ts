import type { RecallStage } from "../stage.js";

/** Drops candidates below the calibrated score `minScore`: too weak to be worth showing. */
export function minScoreStage(minScore: number): RecallStage {
  return {
    name: "minScore",
    apply: (_ctx, candidates) => candidates.filter((c) => c.score >= minScore),
  };
}
