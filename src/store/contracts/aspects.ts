/** The aspects of entities and the classification of memory mentions (seed 004 "Structural Classification"). */

/** Meta keys of what the structural pass, the recall feedback and the decay did last (`cairn status`). */
export const STRUCTURAL_META = {
  lastRun: "structural.lastRun",
  lastFeedback: "structural.lastFeedback",
  lastDecay: "structural.lastDecay",
} as const;

export type MentionKind = "attribute" | "constraint";

/** An entity whose mentions wait for classification. */
export interface EntityAwaiting {
  entityId: number;
  /** Mentions of live memories not yet classified. */
  waiting: number;
  /** The newest such mention's rowid: a job's watermark, so a later mention reopens a finished job. */
  newestMention: number;
}

export interface EntityRow {
  id: number;
  name: string;
  entityType: string;
}

export interface AspectRow {
  id: number;
  entityId: number;
  name: string;
  canonicalName: string;
  weight: number;
}

/** One memory's mention of an entity, waiting to be classified. */
export interface PendingFact {
  memoryId: number;
  content: string;
  kind: MentionKind;
}

/** One classified fact: which aspect of the entity it describes, and how binding it is. */
export interface FactClassification {
  memoryId: number;
  aspect: string;
  kind: MentionKind;
}

/** Bounds and step of the recall feedback on aspect weights. */
export interface AspectWeighting {
  delta: number;
  minWeight: number;
  maxWeight: number;
}

export interface AspectDecay {
  /** An aspect neither confirmed nor decayed for this long loses `rate` once. */
  staleMs: number;
  rate: number;
  minWeight: number;
}

export interface StructuralCounts {
  aspects: number;
  /** Mentions that carry an aspect. */
  classified: number;
  /** Mentions of live memories not yet classified. */
  waiting: number;
}

export interface AspectRepo {
  /** Newest waiting mention first, so entities stuck on dead jobs never crowd out new work. */
  entitiesAwaiting(limit: number): EntityAwaiting[];
  entity(id: number): EntityRow | undefined;
  aspectsOf(entityId: number): AspectRow[];
  /** The oldest unclassified mentions of the entity on live memories, at most `limit`. */
  pendingFacts(entityId: number, limit: number): PendingFact[];
  /**
   * Upserts the aspects named, files each memory's mention under its aspect and kind, and sets the
   * entity's type when given. Call inside a write transaction; returns how many aspects were new.
   */
  classify(input: { entityId: number; facts: FactClassification[]; entityType?: string; now: number }): number;
  /** How many of the memories each aspect holds (aspect id -> confirmations); a read, for recall feedback. */
  confirmationsOf(memoryIds: readonly number[]): Map<number, number>;
  /** Adds delta x confirmations to each aspect, within bounds. */
  confirm(confirmations: ReadonlyMap<number, number>, weighting: AspectWeighting, now: number): void;
  /** Lowers the aspects not confirmed (nor decayed) within the stale window; returns how many. */
  decay(options: AspectDecay, now: number): number;
  counts(): StructuralCounts;
}
