import type { RecallConfig } from "../../config/recallConfig.js";
import { byScoreDesc } from "../candidate.js";
import { applyDampening } from "../dampening.js";
import type { RecallStage } from "../stage.js";

/** Gravity, hub and resolution (each toggleable), then the final order. Gravity and resolution read text. */
export function dampeningStage(options: RecallConfig["dampening"]): RecallStage {
  return {
    name: "dampening",
    needsContent: (_ctx, candidates) => (options.gravityEnabled || options.resolutionEnabled ? candidates : []),
    apply(ctx, candidates) {
      applyDampening({
        candidates,
        queryStems: ctx.query.stems,
        degrees: () => ctx.deps.graph.entityDegrees(candidates.map((c) => c.id)),
        config: options,
      });
      return candidates.sort(byScoreDesc);
    },
  };
}
