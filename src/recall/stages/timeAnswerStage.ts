import type { RecallConfig } from "../../config/recallConfig.js";
import type { Candidate } from "../candidate.js";
import type { RecallContext, RecallStage } from "../stage.js";
import { applyTimeAnswerPrior } from "../timeAnswerPrior.js";

/**
 * For a question that asks when, memories that mention no time besides their own moment lose
 * (`penalty`). It weighs each memory's own evidence, so it runs before conversation context lends
 * scores, and neighbours that context admits later are weighed too (`onAdmit`).
 */
export function timeAnswerStage(options: RecallConfig["timeAnswer"]): RecallStage {
  const weigh = (ctx: RecallContext, candidates: Candidate[]): void => {
    if (!ctx.query.asksWhen || options.penalty >= 1 || candidates.length === 0) return;
    const mentions = ctx.deps.memories.timeMentions(candidates.map((c) => c.id));
    applyTimeAnswerPrior(candidates, mentions, options.penalty);
  };
  return {
    name: "timeAnswer",
    apply(ctx, candidates) {
      weigh(ctx, candidates);
      return candidates;
    },
    onAdmit: weigh,
  };
}
