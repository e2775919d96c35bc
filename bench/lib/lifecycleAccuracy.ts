import type { GeneratedMemory, Truth } from "./codingMemories.js";

/** A pair the lifecycle joined: the older memory's and the newer memory's place in the input. */
export interface JoinedPair {
  older: number;
  newer: number;
}

export interface LifecycleAccuracy {
  /** Supersessions that replaced an earlier value of the same fact, of all supersessions. */
  supersededPrecision: number;
  /** Review flags between a fact and its update, of all flags. */
  flaggedPrecision: number;
  /** Memories a later one updates, that were replaced by an update. */
  supersededRecall: number;
  /** Memories a later one updates, that were replaced by or flagged against an update. */
  caughtRecall: number;
  /** Memories a later one updates (the recall's denominator). */
  updated: number;
  wrongSuperseded: number;
  wrongFlagged: number;
}

/** Whether `newer` updates `older`: the same slot, or it retires a thing the older presents as current. */
export function updates(newer: Truth, older: Truth): boolean {
  return newer.slot === older.slot || newer.retires.some((thing) => older.current.includes(thing));
}

const ratio = (part: number, whole: number) => (whole === 0 ? 1 : Math.round((part / whole) * 1000) / 1000);

/**
 * Scores what `cairn remember --file` superseded and flagged against the generator's truth: an update
 * is the same slot with a later value (or a retired thing); every other pair must be neither
 * superseded nor flagged. Items are in the order they were said.
 */
export function lifecycleAccuracy(
  items: GeneratedMemory[],
  superseded: JoinedPair[],
  flagged: JoinedPair[],
): LifecycleAccuracy {
  const right = (pair: JoinedPair) => {
    const [older, newer] = pair.older < pair.newer ? [pair.older, pair.newer] : [pair.newer, pair.older];
    return updates(items[newer]!.truth, items[older]!.truth);
  };
  const goodSuperseded = superseded.filter(right);
  const goodFlagged = flagged.filter(right);
  const replaced = new Set(goodSuperseded.map((pair) => pair.older));
  const caught = new Set([...replaced, ...goodFlagged.map((pair) => Math.min(pair.older, pair.newer))]);
  // A memory is updated when a later one of its fact says something else (a restatement is no update).
  const laterBySlot = new Map<string, Set<string>>();
  const retiredLater = new Set<string>();
  let updated = 0;
  let supersededHits = 0;
  let caughtHits = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const { truth, content } = items[i]!;
    const later = laterBySlot.get(truth.slot);
    const isUpdated =
      (later !== undefined && [...later].some((text) => text !== content)) ||
      truth.current.some((thing) => retiredLater.has(thing));
    if (isUpdated) {
      updated += 1;
      if (replaced.has(i)) supersededHits += 1;
      if (caught.has(i)) caughtHits += 1;
    }
    if (later) later.add(content);
    else laterBySlot.set(truth.slot, new Set([content]));
    for (const thing of truth.retires) retiredLater.add(thing);
  }
  return {
    supersededPrecision: ratio(goodSuperseded.length, superseded.length),
    flaggedPrecision: ratio(goodFlagged.length, flagged.length),
    supersededRecall: ratio(supersededHits, updated),
    caughtRecall: ratio(caughtHits, updated),
    updated,
    wrongSuperseded: superseded.length - goodSuperseded.length,
    wrongFlagged: flagged.length - goodFlagged.length,
  };
}
