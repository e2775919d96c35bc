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

/** A hint-only match (no keyword match, weak vector) is capped: a guessed question is weaker evidence. */
export function capHintOnly(score: number, input: { keyword: number; hint: number; cap: number }): number {
  return input.hint > 0 && input.keyword === 0 ? Math.min(score, input.cap) : score;
}
