import { dot } from "../store/vectorCodec.js";
import type { RerankProvider } from "./rerank.js";

/**
 * Blends each score with the cosine between the query and the memory's stored vector:
 * `originalWeight * score + (1 - originalWeight) * cosine` (0.7 / 0.3 by default). Memories without a
 * stored vector keep their score. No provider call: the vectors are the ones already in the store.
 */
export function createEmbeddingReranker(options: {
  queryVector: Float32Array;
  vectors: (contentHashes: string[]) => Map<string, Float32Array>;
  originalWeight: number;
}): RerankProvider {
  return async (_query, candidates) => {
    const vectors = options.vectors(candidates.map((c) => c.contentHash));
    const rescored = candidates.map((c) => {
      const vector = vectors.get(c.contentHash);
      if (!vector) return c;
      const cosine = Math.max(0, dot(options.queryVector, vector));
      return { ...c, score: options.originalWeight * c.score + (1 - options.originalWeight) * cosine };
    });
    return rescored.sort((a, b) => b.score - a.score || a.id - b.id);
  };
}
