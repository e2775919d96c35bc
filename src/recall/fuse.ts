/**
 * The hybrid score: `alpha * vector + (1 - alpha) * keyword`. Both legs are calibrated to [0, 1]
 * (cosine clipped at 0; BM25 as a fraction of the ideal), and every candidate has both: its cosine is
 * computed exactly even when only the keyword leg found it, so a memory is never scored by one leg
 * merely because the other leg's cut-off missed it. A hint is a second keyword view of the memory
 * and merges with max, never a sum, so a memory matching both is not double counted.
 */
export function fuseScores(input: { keyword: number; vector: number; hint: number; alpha: number }): number {
  const keyword = Math.max(input.keyword, input.hint);
  return input.alpha * Math.max(0, input.vector) + (1 - input.alpha) * keyword;
}

/**
 * A cosine on the embedding model's own scale (`recall.vectorRange`): the cosine of unrelated texts
 * maps to 0, that of a close paraphrase to 1, clipped to [0, 1]. A model whose unrelated texts sit at
 * 0.4 would otherwise lift every candidate by 0.4 times the vector weight, and its best matches
 * would never reach the keyword leg's scale.
 */
export function rescaleCosine(cosine: number, range: { floor: number; ceiling: number }): number {
  // The full range is the identity: left as it is, so a float's rounding above 1 scores as before.
  if (range.floor === 0 && range.ceiling === 1) return cosine;
  return Math.min(1, Math.max(0, (cosine - range.floor) / (range.ceiling - range.floor)));
}

/** A hint-only match (no keyword match, weak vector) is capped: a guessed question is weaker evidence. */
export function capHintOnly(score: number, input: { keyword: number; hint: number; cap: number }): number {
  return input.hint > 0 && input.keyword === 0 ? Math.min(score, input.cap) : score;
}
