import type { RecallConfig } from "../../config/recallConfig.js";
import { applyAuthorPrior, byNamedAuthor } from "../authorPrior.js";
import type { RecallStage } from "../stage.js";

/**
 * When the query names the author of stored memories, others' memories lose (`penalty`), and so do
 * the named author's memories that speak only to someone else (`addressedPenalty`: it reads their
 * grammar, so their text is loaded first).
 */
export function authorStage(options: RecallConfig["author"]): RecallStage {
  return {
    name: "author",
    needsContent: (ctx, candidates) => (options.addressedPenalty < 1 ? byNamedAuthor(candidates, ctx.authorWords) : []),
    apply(ctx, candidates) {
      applyAuthorPrior(candidates, ctx.authorWords, options);
      return candidates;
    },
  };
}
