import type { CairnConfig } from "../config/schema.js";
import { DAY_MS, HOUR_MS } from "../util/clock.js";
import type { EligibilityWindow } from "./contracts/eligibility.js";

/**
 * The sessions phase 1 may take at `now`: of an allowed kind, idle at least `minRolloutIdleHours`,
 * updated within `maxRolloutAgeDays`. Phase 1 claims by it, and `status` and an empty injection's
 * reason count by it, so they agree.
 */
export function eligibilityWindow(config: CairnConfig, now: number): EligibilityWindow {
  return {
    now,
    allowedKinds: config.memories.allowedKinds,
    oldest: now - config.memories.maxRolloutAgeDays * DAY_MS,
    newest: now - config.memories.minRolloutIdleHours * HOUR_MS,
    scanLimit: config.extraction.scanLimit,
  };
}

/** The largest memories.maxRolloutAgeDays the configuration takes (src/config/schema.ts). */
const MAX_AGE_DAYS = 3650;

/**
 * The memories.maxRolloutAgeDays that includes a session last updated at `oldest`: whole days, more
 * than the current limit, at most the largest the setting takes.
 */
export function ageLimitIncluding(oldest: number, config: CairnConfig, now: number): number {
  const days = Math.ceil((now - oldest) / DAY_MS);
  return Math.min(MAX_AGE_DAYS, Math.max(days, config.memories.maxRolloutAgeDays + 1));
}
