import { calibrateBm25, idealBm25 } from "./calibrate.js";
import type { FtsQuery } from "./ftsQuery.js";
import type { RecallDeps } from "./recallDeps.js";

/**
 * Calibrated hint score per memory: the best of its generated questions matching the keyword
 * query's MATCH. Hint words need not occur in any memory, so the ideal counts them as rare rather
 * than leaving them out.
 */
export function hintLeg(
  deps: RecallDeps,
  input: { fts: FtsQuery; frequencies: Map<string, number>; corpusSize: number; scopes: string[] | "all" },
): Map<number, number> {
  const hint = new Map<number, number>();
  const hintIdeal = idealBm25(input.fts.weightedTerms, input.frequencies, input.corpusSize, 1);
  for (const h of deps.search.hints(input.fts.match, input.scopes, deps.config.candidatePool))
    hint.set(h.id, calibrateBm25(h.raw, hintIdeal));
  return hint;
}
