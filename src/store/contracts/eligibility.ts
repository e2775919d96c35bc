import type { SessionKind } from "../../sources/types.js";

export interface EligibilityWindow {
  now: number;
  allowedKinds: readonly SessionKind[];
  /** Sessions updated before this are too old. */
  oldest: number;
  /** Sessions updated after this are not idle long enough. */
  newest: number;
  scanLimit: number;
  /** Limit to these sessions (e.g. one project), or all when absent. */
  sessionIds?: readonly string[];
  /** Limit to the sessions of one folder, or all when absent. */
  folder?: FolderFilter;
}

/** The sessions of one folder: recorded under one of these project keys, or in `cwd` or below it. */
export interface FolderFilter {
  projectKeys: readonly string[];
  cwd: string;
}

/** The oldest last update (epoch ms) among pending sessions that wait for each window; null: none wait. */
export interface PendingBounds {
  /** Not idle long enough yet: the first of them becomes eligible this long after its update. */
  oldestTooRecent: number | null;
  /** Past the age limit: a limit reaching back to this includes every one of them. */
  oldestTooOld: number | null;
}

export interface PendingBreakdown {
  eligible: number;
  tooRecent: number;
  tooOld: number;
  kindExcluded: number;
  leased: number;
  backingOff: number;
  dead: number;
}

/** The phase-1 claim rules: which sessions are eligible now, and why the others wait. */
export interface EligibilityRepo {
  eligible(window: EligibilityWindow): Array<{ id: string; invalidatedAt: number }>;
  breakdown(window: EligibilityWindow): PendingBreakdown;
  bounds(window: EligibilityWindow): PendingBounds;
}
