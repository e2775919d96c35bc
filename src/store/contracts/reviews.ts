/** What a contradiction detector, or a person, flagged for a person to decide. */
export interface ReviewFlag {
  id: number;
  /** The stored memory the flag is about. */
  memoryId: number;
  /** The memory it conflicts with, when one was written. */
  relatedId: number | null;
  /** The fact that was proposed and not applied (shadow mode, a blocked UPDATE), when there is no memory for it. */
  proposedContent: string | null;
  reason: string;
  /** "syntactic", "semantic" or "user". */
  detector: string;
  createdAt: number;
  resolvedAt: number | null;
  /** "kept", "superseded" or "forgotten" once resolved. */
  resolution: string | null;
}

export type NewReviewFlag = Pick<ReviewFlag, "memoryId" | "reason" | "detector"> &
  Partial<Pick<ReviewFlag, "relatedId" | "proposedContent">> & { now: number };

/** What a reader is told of a memory an open flag doubts: the newer live memory that may replace it, and the flag. */
export interface Doubt {
  newer: number;
  flag: number;
}

/** An open flag between two live memories: the one said first (doubted) and the newer one. */
export interface DoubtedPair {
  flag: number;
  older: number;
  newer: number;
}

export const reviewResolutions = ["kept", "superseded", "forgotten"] as const;
export type ReviewResolution = (typeof reviewResolutions)[number];

/** Flags awaiting a person (`cairn memory review`). */
export interface ReviewRepo {
  add(flag: NewReviewFlag): number;
  get(id: number): ReviewFlag | undefined;
  /** Open flags, oldest first; only those about memories in `scopes` when given. */
  open(options?: { scopes?: string[]; limit?: number }): ReviewFlag[];
  /** Whether a flag about `memoryId` against `relatedId` is still open (one indexed lookup). */
  hasOpen(memoryId: number, relatedId: number): boolean;
  /**
   * Each of `memoryIds` that is the older statement of an open flag between two live memories, with the
   * newer one and the earliest such flag: a reader should not take that memory at its word. The older
   * is the one said first (`isNewer`), whichever side the flag names first.
   */
  doubtsAbout(memoryIds: number[]): Map<number, Doubt>;
  /**
   * Open flags between two live memories, newest first, whose flagged memory is in `scopes` when given:
   * the pairs a workspace marks as doubted, each oriented as `doubtsAbout` orients it.
   */
  openPairs(options: { scopes?: string[]; limit: number }): DoubtedPair[];
  /**
   * Per scope of the flagged memories, a mark that changes whenever a flag there is added or resolved:
   * phase 2 reruns a workspace whose doubts changed.
   */
  marks(): Record<string, string>;
  /** How many flags wait for a person, in every scope. */
  countOpen(): number;
  resolve(id: number, resolution: ReviewResolution, now: number): boolean;
  /** Resolves every open flag about `memoryId` (it stopped being live: nothing is left to decide); how many. */
  resolveAbout(memoryId: number, resolution: ReviewResolution, now: number): number;
}
