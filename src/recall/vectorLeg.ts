import type { MemoryRef } from "../store/repositories/memoryRepository.js";
import { dot } from "../store/vectorCodec.js";
import type { RecallDeps } from "./recallDeps.js";

/**
 * Candidate ids for the vector leg: binary-KNN candidates from sqlite-vec when it is loaded (they are
 * rescored exactly afterwards), otherwise an exact scan of the scopes' float vectors.
 */
export function vectorCandidates(deps: RecallDeps, queryVector: Float32Array, scopes: string[] | "all"): number[] {
  const { config, vectorIndex } = deps;
  if (vectorIndex.enabled) return vectorIndex.candidates(queryVector, scopes, config.vectorCandidates);
  const scored = deps.embeddings
    .scanScopes(scopes, deps.provider.model)
    .map((row) => ({ id: row.id, score: dot(queryVector, row.vector) }))
    .sort((a, b) => b.score - a.score);
  return scored.slice(0, config.candidatePool).map((row) => row.id);
}

/**
 * Exact cosine (vectors are L2-normalized) for each memory with a stored vector of the current model,
 * clipped at 0. Computed inside SQLite by sqlite-vec when loaded (no blobs cross into JS).
 */
export function exactCosines(deps: RecallDeps, queryVector: Float32Array, refs: MemoryRef[]): Map<number, number> {
  const hashes = [...new Set(refs.map((r) => r.contentHash))];
  const byHash = deps.vectorIndex.enabled
    ? deps.embeddings.cosinesInSql(hashes, deps.provider.model, queryVector)
    : new Map([...deps.embeddings.getMany(hashes, deps.provider.model)].map(([h, v]) => [h, dot(queryVector, v)]));
  const out = new Map<number, number>();
  for (const ref of refs) {
    const cosine = byHash.get(ref.contentHash);
    if (cosine !== undefined) out.set(ref.id, Math.max(0, cosine));
  }
  return out;
}
