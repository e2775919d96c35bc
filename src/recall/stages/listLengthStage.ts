import type { RecallConfig } from "../../config/recallConfig.js";
import { byScoreDesc } from "../candidate.js";
import { applyListLengthPrior } from "../listLengthPrior.js";
import type { RecallStage } from "../stage.js";

/** For a question that asks for a list, memories shorter than `words` lose a little (they need their text). */
export function listLengthStage(options: RecallConfig["listLength"]): RecallStage {
  return {
    name: "listLength",
    needsContent: (ctx, candidates) => (ctx.query.asksList ? candidates : []),
    apply(ctx, candidates) {
      if (!ctx.query.asksList) return candidates;
      applyListLengthPrior(candidates, options);
      return candidates.sort(byScoreDesc);
    },
  };
}
