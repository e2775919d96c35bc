import { words } from "../text/tokenize.js";
import type { Candidate } from "./candidate.js";

export interface ListLengthOptions {
  /** Memories at least this many words long keep their score. */
  words: number;
  /** Shorter ones are multiplied by `(length / words) ^ exponent` (0: off). */
  exponent: number;
}

/**
 * A question that asks for a list ("What activities does Jane do?") is answered across many
 * memories, each naming one thing that happened; the memories that match it on the subject and the
 * category word alone are mostly short replies ("Have fun!", "That's so fun!"). So for such
 * questions shorter memories are multiplied by `(length / words) ^ exponent`: a gentle slope (0.3
 * gives a 10-word memory 0.66 of a 40-word one's score) that orders near-ties and cannot bury a
 * strong match. Only list questions get it: on every question it lowers crisp one-line answers
 * (measurements: docs/experiments/locomo-recall.md). Candidates need their `content` loaded.
 */
export function applyListLengthPrior(candidates: Candidate[], options: ListLengthOptions): void {
  if (options.exponent <= 0) return;
  for (const c of candidates) {
    const length = words(c.content ?? "").length;
    if (length < options.words) c.score *= (length / options.words) ** options.exponent;
  }
}
