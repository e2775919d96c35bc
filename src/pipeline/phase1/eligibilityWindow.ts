import type { CairnConfig } from "../../config/schema.js";
import type { EligibilityWindow } from "../../store/repositories/eligibilityRepository.js";
import { DAY_MS, HOUR_MS } from "../../util/clock.js";

/**
 * The sessions phase 1 may take at `now`: of an allowed kind, idle at least `minRolloutIdleHours`,
 * updated within `maxRolloutAgeDays`. Phase 1 claims by it and `status` counts by it, so the two agree.
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
