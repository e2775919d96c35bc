/** FNV-1a over UTF-16 code units: fast, deterministic across platforms and releases. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Murmur3's finalizer: spreads the FNV bits so the bucket and the sign come from independent bits. */
export function mix32(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * Adds `weight` for `feature` to a signed-hash sketch: the bucket from one hash, the sign from another,
 * so collisions cancel in expectation instead of always adding up (Weinberger et al., 2009).
 */
export function addFeature(vector: Float32Array, feature: string, weight: number): void {
  addHashedFeature(vector, fnv1a(feature), weight);
}

/** As addFeature, for a feature already hashed with fnv1a. */
export function addHashedFeature(vector: Float32Array, h: number, weight: number): void {
  const bucket = mix32(h) % vector.length;
  const sign = (mix32(h ^ 0x9e3779b9) & 1) === 0 ? 1 : -1;
  vector[bucket] = (vector[bucket] ?? 0) + sign * weight;
}

export function l2Normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] ?? 0) ** 2;
  if (sum === 0) return vector;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) * inv;
  return vector;
}
