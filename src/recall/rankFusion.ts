/**
 * Reciprocal rank fusion (Cormack et al., 2009) that keeps the calibrated score levels.
 *
 * A linear blend of a keyword score and a cosine lets the leg with the wider spread decide: word-vector
 * cosines bunch (most pairs of texts sit within a few hundredths of each other), so BM25 decides nearly
 * every order. Rank fusion orders by 1/(k + keyword rank) + 1/(k + vector rank) instead, so a memory
 * the vector leg ranks first is lifted whatever the spread of its cosine. Downstream stages and
 * `minScore` read the score as a calibrated confidence, so the scores themselves are the linear blend's,
 * sorted and handed out in the fused order: the best memory keeps the best blend's confidence, and a
 * question nothing answers well still gets only weak scores.
 */
export interface RankFusionInput {
  /** The keyword leg's calibrated score (0 when the leg did not find the memory). */
  keyword: number;
  /** The vector leg's cosine (0 when there is no query vector). */
  vector: number;
  /** The linear blend's score. */
  score: number;
}

/** The smoothing constant of reciprocal rank fusion: the usual 60 flattens the head too much for a top 10. */
export const RANK_FUSION_K = 10;

/** New scores, aligned with `items`: the items' own scores reassigned in reciprocal-rank order. */
export function rankFusedScores(items: RankFusionInput[], k = RANK_FUSION_K): number[] {
  const fused = new Float64Array(items.length);
  const addRanks = (value: (item: RankFusionInput) => number) => {
    const order = items
      .map((item, index) => ({ index, v: value(item) }))
      .filter((x) => x.v > 0)
      .sort((a, b) => b.v - a.v || a.index - b.index);
    order.forEach((x, rank) => {
      fused[x.index]! += 1 / (k + rank + 1);
    });
  };
  addRanks((item) => item.keyword);
  addRanks((item) => item.vector);
  const levels = items.map((item) => item.score).sort((a, b) => b - a);
  const byFused = items.map((_, index) => index).sort((a, b) => fused[b]! - fused[a]! || a - b);
  const out = new Array<number>(items.length);
  byFused.forEach((index, place) => {
    out[index] = levels[place]!;
  });
  return out;
}
