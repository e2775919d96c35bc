import type { RememberOutcome } from "../types.js";
import type { ReviseReport } from "./reviseMemories.js";

/**
 * Tells each remembered memory what it replaced, or what replaced it, and which review flags it
 * raised, so a door can say so.
 */
export function attachSupersessions(
  outcomes: RememberOutcome[],
  revised: Pick<ReviseReport, "superseded" | "flagged">,
): RememberOutcome[] {
  const supersessions = revised.superseded;
  return outcomes.map((outcome) => {
    if (outcome.status !== "created" || outcome.id === undefined) return outcome;
    const id = outcome.id;
    const flagged = revised.flagged
      .filter((f) => f.memoryId === id || f.relatedId === id)
      .map((f) => ({ flag: f.flag, with: f.memoryId === id ? f.relatedId : f.memoryId, reason: f.reason }));
    const replaced = supersessions
      .filter((s) => s.newId === outcome.id)
      .map((s) => ({ id: s.oldId, content: s.oldContent, reason: s.reason }));
    const by = supersessions.find((s) => s.oldId === outcome.id);
    return {
      ...outcome,
      ...(replaced.length > 0 ? { superseded: replaced } : {}),
      ...(by ? { supersededBy: { id: by.newId, reason: by.reason } } : {}),
      ...(flagged.length > 0 ? { flagged } : {}),
    };
  });
}
