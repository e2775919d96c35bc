import type { RememberOutcome } from "../types.js";
import type { Supersession } from "./reviseMemories.js";

/** Tells each remembered memory what it replaced, or what replaced it, so a door can say so. */
export function attachSupersessions(outcomes: RememberOutcome[], supersessions: Supersession[]): RememberOutcome[] {
  return outcomes.map((outcome) => {
    if (outcome.status !== "created" || outcome.id === undefined) return outcome;
    const replaced = supersessions
      .filter((s) => s.newId === outcome.id)
      .map((s) => ({ id: s.oldId, content: s.oldContent, reason: s.reason }));
    const by = supersessions.find((s) => s.oldId === outcome.id);
    return {
      ...outcome,
      ...(replaced.length > 0 ? { superseded: replaced } : {}),
      ...(by ? { supersededBy: { id: by.newId, reason: by.reason } } : {}),
    };
  });
}
