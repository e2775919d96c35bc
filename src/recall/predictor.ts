/**
 * The predictor's interface (seed 004): a scorer that re-ranks recall's candidates from their
 * features. Off by default; cairn ships no trained scorer (no measurement has shown one helps), so a
 * scorer is the caller's: the library's `createRecall({ predictor })` or a test double.
 */

/** What the scorer sees of one candidate. */
export interface PredictorCandidate {
  id: number;
  features: {
    /** The score recall gave it (0 to 1). */
    baseline: number;
    keyword: number;
    vector: number;
    /** Days since the memory was written. */
    ageDays: number;
    /** Mean relevance sessions gave it (continuity scoring), -1 when none did. */
    continuity: number;
    continuitySessions: number;
  };
}

export interface PredictorScorer {
  readonly name: string;
  /** One score per candidate, same order, each in [0, 1]. May be slow or fail: recall falls back. */
  score(request: { query: string; candidates: PredictorCandidate[] }, signal: AbortSignal): Promise<number[]>;
}
