import { ProviderError } from "../providerError.js";

/** Checks a vector list's shape and L2-normalizes each vector (the contract promises unit vectors). */
export function toUnitVectors(provider: string, vectors: unknown, expected: number): Float32Array[] {
  if (!Array.isArray(vectors) || vectors.length !== expected || !vectors.every((v) => Array.isArray(v))) {
    throw new ProviderError({
      provider,
      kind: "malformed",
      message: `${provider}: expected ${expected} vectors`,
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
