import type { MemoryRecord } from "../memory/types.js";
import { dot } from "../memory/vectorCodec.js";
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

/** Exact cosine (vectors are L2-normalized) for each record with a stored vector of the current model. */
export function exactCosines(
  deps: RecallDeps,
  queryVector: Float32Array,
  records: MemoryRecord[],
): Map<number, number> {
  const vectors = deps.embeddings.getMany([...new Set(records.map((r) => r.contentHash))], deps.provider.model);
  const out = new Map<number, number>();
  for (const record of records) {
    const vector = vectors.get(record.contentHash);
    if (vector) out.set(record.id, Math.max(0, dot(queryVector, vector)));
  }
  return out;
}
