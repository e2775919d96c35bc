import type { RecallConfig } from "../../config/recallConfig.js";
import type { Candidate } from "../candidate.js";
import { createEmbeddingReranker } from "../embeddingReranker.js";
import { passThroughReranker, type RerankProvider, rerankWithTimeout } from "../rerank.js";
import type { RecallContext, RecallStage } from "../stage.js";

/** The configured reranker: `embedding` (stored vectors) or `provider` (the one supplied). */
function rerankerFor(ctx: RecallContext, options: RecallConfig["reranker"]): RerankProvider {
  const { deps, queryVector } = ctx;
  if (options.kind === "embedding" && queryVector) {
    return createEmbeddingReranker({
      queryVector,
      vectors: (hashes) => deps.embeddings.getMany(hashes, deps.provider.model),
      originalWeight: options.originalWeight,
    });
  }
  if (options.kind === "provider" && deps.reranker) return deps.reranker;
  return passThroughReranker;
}

/** Reranks the head under a timeout; on a timeout, an error or a changed set the order is kept (warned). */
export function rerankStage(options: RecallConfig["reranker"]): RecallStage {
  return {
    name: "rerank",
    needsContent: (_ctx, candidates) => candidates,
    async apply(ctx, candidates) {
      if (candidates.length === 0) return candidates;
      const byId = new Map(candidates.map((c) => [c.id, c]));
      const outcome = await rerankWithTimeout({
        query: ctx.request.query,
        candidates: candidates.map((c) => ({
          id: c.id,
          content: c.content ?? "",
          score: c.score,
          contentHash: c.ref.contentHash,
        })),
        provider: rerankerFor(ctx, options),
        topN: options.topN,
        timeoutMs: options.timeoutMs,
      });
      if (outcome.fallback) ctx.warnings.push(`reranker ${outcome.fallback}; original order kept`);
      return outcome.candidates.map((r): Candidate => {
        const c = byId.get(r.id)!;
        c.score = Math.min(1, Math.max(0, r.score));
        return c;
      });
    },
  };
}
