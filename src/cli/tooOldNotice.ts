import type { Phase1Report } from "../pipeline/phase1/runPhase1.js";
import type { MetaRepo } from "../store/contracts/meta.js";

/** Where the store remembers that a run told which setting includes the sessions too old to extract. */
const TOLD = "cli.tooOldNotice";

/**
 * Whether this report is to say which memories.maxRolloutAgeDays would include the sessions it skipped
 * as too old: the first run that skips any says it, once for the store (the later ones only count
 * them); a dry run, which changes nothing, always says it.
 */
export function tellTooOld(meta: MetaRepo, report: Phase1Report, now: number): boolean {
  if (report.includeTooOld === undefined) return false;
  if (report.dryRun) return true;
  if (meta.get(TOLD) !== undefined) return false;
  meta.set(TOLD, { at: now, sessions: report.pending.tooOld, maxRolloutAgeDays: report.includeTooOld });
  return true;
}
