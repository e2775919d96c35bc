import { stem } from "../text/stem.js";

/** FTS5's IDF: ln((N - n + 0.5) / (n + 0.5)), floored as FTS5 floors it. */
export function idf(corpusSize: number, documentFrequency: number): number {
  const value = Math.log((corpusSize - documentFrequency + 0.5) / (documentFrequency + 0.5));
  return Math.max(value, 1e-6);
}

/**
 * The BM25 score a document would reach by containing every query term once at average length.
 * With FTS5's k1 = 1.2 and b = 0.75 a single occurrence at average length contributes exactly IDF,
 * so the ideal is the weighted IDF sum. Terms the index has never seen are left out: no document can
 * match them, and counting them would make every score look weak for a typo.
 */
export function idealBm25(
  weightedTerms: { term: string; weight: number }[],
  documentFrequencies: Map<string, number>,
  corpusSize: number,
  /** Document frequency assumed for terms the index has not seen (hints are indexed elsewhere). */
  unseenFrequency?: number,
): number {
  let ideal = 0;
  for (const { term, weight } of weightedTerms) {
    const stems = term.split(" ").map(stem);
    let best = 0;
    for (const s of stems) {
      const df = documentFrequencies.get(s) || unseenFrequency || 0;
      if (df > 0) best = Math.max(best, idf(corpusSize, df));
    }
    ideal += weight * best;
  }
  return ideal;
}

/** Where saturation starts: scores below stay as they are. */
export const SATURATION_KNEE = 0.8;

/**
 * How far above the knee (in fractions of the ideal score) the curve has covered 63% of the room
 * left below 1. Three times the room (0.6): a memory at 1.4x the ideal scores 0.93, at 2x 0.96, so
 * strong hits stay apart. With the room itself (0.2) everything above 1.3x the ideal landed within
 * 0.02 of 1, and on list questions ("What has Jane painted?") the order of a dozen strong hits came
 * down to context and author factors (measurements: docs/experiments/locomo-recall.md).
 */
export const SATURATION_SPAN = 0.6;

/**
 * Maps [0, inf) into [0, 1) keeping order: the identity up to `knee`, then an exponential approach to
 * 1. A hard clamp makes every strong hit exactly 1.0 and their order a tie; this keeps them apart, and
 * a weak score stays weak.
 */
export function saturate(x: number, knee = SATURATION_KNEE, span = SATURATION_SPAN): number {
  if (x <= knee) return Math.max(0, x);
  const room = 1 - knee;
  return knee + room * (1 - Math.exp(-(x - knee) / span));
}

/**
 * Calibrated keyword relevance in [0, 1]: |bm25| as a fraction of the ideal score. A memory that
 * matches only the most common query word scores low even when it is the best hit, unlike the
 * per-query max-normalization (|s| / max|s|) that makes every best hit 1.0. Short documents with
 * repeated terms can exceed the ideal, hence the saturation.
 */
export function calibrateBm25(raw: number, ideal: number): number {
  if (ideal <= 0) return 0;
  return saturate(Math.abs(raw) / ideal);
}
