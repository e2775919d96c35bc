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
}
