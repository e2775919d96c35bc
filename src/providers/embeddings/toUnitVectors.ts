import { ProviderError } from "../providerError.js";

/**
 * Checks a vector list's shape (one vector per text, each of the configured width) and L2-normalizes
 * each vector: the contract promises unit vectors of `embeddings.dimensions`. A model of another width
 * is a config error, not a retryable one: every text would fail the same way.
 */
export function toUnitVectors(
  provider: string,
  vectors: unknown,
  expected: number,
  dimensions: number,
): Float32Array[] {
  if (!Array.isArray(vectors) || vectors.length !== expected || !vectors.every((v) => Array.isArray(v))) {
    throw new ProviderError({
      provider,
      kind: "malformed",
      message: `${provider}: expected ${expected} vectors`,
      isRetryable: false,
    });
  }
  const width = (vectors as number[][]).find((v) => v.length !== dimensions)?.length;
  if (width !== undefined) {
    throw new ProviderError({
      provider,
      kind: "config",
      message: `${provider}: the model gives ${width}-dimension vectors, embeddings.dimensions is ${dimensions}: set embeddings.dimensions to ${width}`,
      isRetryable: false,
    });
  }
  return (vectors as number[][]).map((v) => {
    const out = Float32Array.from(v);
    const norm = Math.hypot(...out);
    if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / norm;
    return out;
  });
}
