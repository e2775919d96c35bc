import type { Candidate } from "./candidate.js";
import { createEmbeddingReranker } from "./embeddingReranker.js";
import type { RecallDeps } from "./recallDeps.js";
import { passThroughReranker, type RerankProvider, rerankWithTimeout } from "./rerank.js";

/** Picks the configured reranker and applies it to the head of the ranking under the timeout. */
export async function rerankStage(
  deps: RecallDeps,
  input: { query: string; ranked: Candidate[]; queryVector: Float32Array | undefined; warnings: string[] },
): Promise<Candidate[]> {
  const config = deps.config.reranker;
  if (!config.enabled || config.kind === "none" || input.ranked.length === 0) return input.ranked;
  let provider: RerankProvider = passThroughReranker;
  if (config.kind === "embedding" && input.queryVector) {
    provider = createEmbeddingReranker({
      queryVector: input.queryVector,
      vectors: (hashes) => deps.embeddings.getMany(hashes, deps.provider.model),
      originalWeight: config.originalWeight,
    });
  } else if (config.kind === "provider" && deps.reranker) provider = deps.reranker;
  const byId = new Map(input.ranked.map((c) => [c.id, c]));
  const outcome = await rerankWithTimeout({
    query: input.query,
    candidates: input.ranked.map((c) => ({
      id: c.id,
      content: c.content ?? "",
      score: c.score,
      contentHash: c.ref.contentHash,
    })),
    provider,
    topN: config.topN,
    timeoutMs: config.timeoutMs,
  });
  if (outcome.fallback) input.warnings.push(`reranker ${outcome.fallback}; original order kept`);
  return outcome.candidates.map((r) => {
    const c = byId.get(r.id)!;
    c.score = Math.min(1, Math.max(0, r.score));
    return c;
  });
}
