import type { MetaRepo } from "../contracts/meta.js";

const WATERMARK_KEY = "phase2.watermark";
const LAST_RUN_KEY = "phase2.last";
const FORCE_NEXT_KEY = "phase2.forceNext";
const TOMBSTONES_KEY = "phase2.tombstones";
const REBUILD_KEY = "phase2.rebuild";

/** What `status` shows of the last successful phase 2. */
export interface Phase2LastRun {
  at: number;
  /**
   * When that run took its inputs: a stage-1 output generated since has not been consolidated, even
   * when its session is older than the watermark (a late import, a session extracted again). Absent
   * in stores written before it was recorded; `at` stands in.
   */
  inputsAt?: number;
  outcome: string;
  watermark: number;
  mode: string;
}

/**
 * Phase 2's state between runs, kept in the meta table: the watermark (the newest stage-1 input
 * consolidated), the last run, and the flag `cairn memory enqueue` sets to force the next run. A typed
 * view, so no caller spells a meta key.
 */
export class Phase2State {
  constructor(private readonly meta: MetaRepo) {}

  watermark(): number | null {
    return this.meta.get<number>(WATERMARK_KEY) ?? null;
  }

  setWatermark(watermark: number): void {
    this.meta.set(WATERMARK_KEY, watermark);
  }

  /** Forgets the watermark: the next phase 2 treats every input as new. */
  clearWatermark(): void {
    this.meta.delete(WATERMARK_KEY);
  }

  /** True when the next phase 2 must consolidate every workspace even if nothing changed. */
  forceNextRequested(): boolean {
    return this.meta.get<boolean>(FORCE_NEXT_KEY) === true;
  }

  requestForceNext(): void {
    this.meta.set(FORCE_NEXT_KEY, true);
  }

  clearForceNext(): void {
    this.meta.delete(FORCE_NEXT_KEY);
  }

  /**
   * Workspaces whose published files may still hold erased text: the next phase 2 builds each from
   * nothing (no previous files, every input new) and clears its mark once it is published. Kept in the
   * store, set in the erasing transaction, so a crash before that phase 2 still rebuilds them.
   */
  rebuildRequested(): string[] {
    return this.meta.get<string[]>(REBUILD_KEY) ?? [];
  }

  requestRebuild(workspaces: Iterable<string>): void {
    const keys = new Set([...this.rebuildRequested(), ...workspaces]);
    this.meta.set(REBUILD_KEY, [...keys].sort());
  }

  /** The workspace was rebuilt (or removed): its files no longer come from before the erase. */
  clearRebuild(workspace: string): void {
    const left = this.rebuildRequested().filter((key) => key !== workspace);
    if (left.length === 0) this.meta.delete(REBUILD_KEY);
    else this.meta.set(REBUILD_KEY, left);
  }

  /** The memories' tombstone marks (per scope) the last successful phase 2 consolidated against. */
  tombstoneMarks(): Record<string, string> {
    return this.meta.get<Record<string, string>>(TOMBSTONES_KEY) ?? {};
  }

  setTombstoneMarks(marks: Record<string, string>): void {
    this.meta.set(TOMBSTONES_KEY, marks);
  }

  lastRun(): Phase2LastRun | null {
    return this.meta.get<Phase2LastRun>(LAST_RUN_KEY) ?? null;
  }

  recordLastRun(run: Phase2LastRun): void {
    this.meta.set(LAST_RUN_KEY, run);
  }
}
