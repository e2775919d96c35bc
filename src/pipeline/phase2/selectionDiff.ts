import type { SelectionEntry } from "../../store/repositories/stage1Repository.js";
import type { Stage1Output } from "../phase1/types.js";

export interface SelectionDiff {
  /** New since the last successful phase 2, or refreshed since it consumed them. */
  added: Stage1Output[];
  /** Consumed before at the same snapshot. */
  retained: Stage1Output[];
  /** Selected last time, still stored, but no longer in the top N. */
  removed: Stage1Output[];
}

/**
 * Labels the current inputs against the last successful selection (seed 000). A refreshed session
 * stays `added` until a phase 2 consumes its new snapshot.
 */
export function selectionDiff(
  current: readonly Stage1Output[],
  previous: readonly SelectionEntry[],
  stillStored: readonly Stage1Output[],
): SelectionDiff {
  const before = new Map(previous.map((entry) => [entry.sessionId, entry.sourceUpdatedAt]));
  const currentIds = new Set(current.map((output) => output.sessionId));
  const added: Stage1Output[] = [];
  const retained: Stage1Output[] = [];
  for (const output of current) {
    if (before.get(output.sessionId) === output.sourceUpdatedAt) retained.push(output);
    else added.push(output);
  }
  const removed = stillStored.filter((output) => before.has(output.sessionId) && !currentIds.has(output.sessionId));
  return { added, retained, removed };
}
