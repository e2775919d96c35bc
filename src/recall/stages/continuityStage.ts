import type { RecallConfig } from "../../config/recallConfig.js";
import { byScoreDesc } from "../candidate.js";
import type { RecallStage } from "../stage.js";

/** Sessions that scored a memory before its mean relevance counts in full. */
const FULL_TRUST_SESSIONS = 3;

/**
 * Continuity (seed 004): a memory that sessions given it went on to use ranks a little higher, one
 * they were given and did not use a little lower: the score moves by `weight * (mean - 0.5)`, scaled
 * down while fewer than three sessions scored it. A memory no session was given is untouched, so a
 * store without scores ranks as before.
 */
export function continuityStage(options: RecallConfig["continuity"]): RecallStage {
  return {
    name: "continuity",
    apply(ctx, candidates) {
      const scored = ctx.deps.continuity?.relevanceOf(candidates.map((c) => c.id));
      if (!scored || scored.size === 0) return candidates;
      for (const candidate of candidates) {
        const seen = scored.get(candidate.id);
        if (!seen) continue;
        const trust = Math.min(1, seen.sessions / FULL_TRUST_SESSIONS);
        candidate.score *= 1 + options.weight * (seen.mean - 0.5) * trust;
      }
      return candidates.sort(byScoreDesc);
    },
  };
}
