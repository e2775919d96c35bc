import type { RememberOutcome } from "../types.js";
import type { ReviseReport } from "./reviseMemories.js";

/**
 * Tells each remembered memory what it replaced, or what replaced it, and which review flags it
 * raised, so a door can say so. The report is grouped by memory once: looking each memory up in the
 * whole report made a bulk remember quadratic.
 */
export function attachSupersessions(
  outcomes: RememberOutcome[],
  revised: Pick<ReviseReport, "superseded" | "flagged">,
): RememberOutcome[] {
  const flags = new Map<number, Array<{ flag: number; with: number; reason: string }>>();
  const add = (id: number, flag: { flag: number; with: number; reason: string }) => {
    const list = flags.get(id);
    if (list) list.push(flag);
    else flags.set(id, [flag]);
  };
  for (const f of revised.flagged) {
    add(f.memoryId, { flag: f.flag, with: f.relatedId, reason: f.reason });
    if (f.relatedId !== f.memoryId) add(f.relatedId, { flag: f.flag, with: f.memoryId, reason: f.reason });
  }
  const replaced = new Map<number, Array<{ id: number; content: string; reason: string }>>();
  const by = new Map<number, { id: number; reason: string }>();
  for (const s of revised.superseded) {
    const list = replaced.get(s.newId) ?? [];
    list.push({ id: s.oldId, content: s.oldContent, reason: s.reason });
    replaced.set(s.newId, list);
    // The first that replaced it, as the report lists them.
    if (!by.has(s.oldId)) by.set(s.oldId, { id: s.newId, reason: s.reason });
  }
  return outcomes.map((outcome) => {
    if (outcome.status !== "created" || outcome.id === undefined) return outcome;
    const id = outcome.id;
    const itsReplaced = replaced.get(id);
    const itsBy = by.get(id);
    const itsFlags = flags.get(id);
    return {
      ...outcome,
      ...(itsReplaced ? { superseded: itsReplaced } : {}),
      ...(itsBy ? { supersededBy: itsBy } : {}),
      ...(itsFlags ? { flagged: itsFlags } : {}),
    };
  });
}
