import type { RecallConfig } from "../../config/recallConfig.js";
import { applyGraphBoost } from "../graphBoost.js";
import type { RecallStage } from "../stage.js";

/**
 * Graph boost: memories linked to the query's entities (one hop through relations) move toward 1
 * by `boostWeight`. Under a deadline; a timeout or a graph error is reported in the warnings.
 */
export function graphStage(options: RecallConfig["graph"]): RecallStage {
  return {
    name: "graph",
    apply(ctx, candidates) {
      if (candidates.length === 0) return candidates;
      const { deps, query, request, warnings } = ctx;
      const boost = applyGraphBoost(deps, {
        ranked: candidates,
        terms: query.terms,
        scopes: request.scopes,
        config: options,
      });
      if (boost.error !== undefined) warnings.push(`graph boost skipped: ${boost.error}`);
      else if (boost.timedOut) warnings.push("graph boost timed out; partial boost applied");
      return candidates;
    },
  };
}
