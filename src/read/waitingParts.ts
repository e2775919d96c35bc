import type { CairnConfig } from "../config/schema.js";
import type { FolderSessionsReason } from "./emptyInjectionReason.js";

/**
 * Why a folder's sessions have not become memory yet, one phrase per kind of wait, each naming the
 * setting that decides it and what changes it; empty when none waits.
 */
export function waitingParts(sessions: FolderSessionsReason, config: CairnConfig): string[] {
  const { minRolloutIdleHours, maxRolloutAgeDays } = config.memories;
  return [
    sessions.eligible > 0 ? `${sessions.eligible} ready to extract ('cairn run' takes them)` : "",
    sessions.active > 0
      ? `${sessions.active} still in use (taken once idle for collection.idleHours = ${config.collection.idleHours} h)`
      : "",
    sessions.tooRecent > 0
      ? `${sessions.tooRecent} too recent (idle less than memories.minRolloutIdleHours = ${minRolloutIdleHours} h)`
      : "",
    sessions.eligibleAt === undefined ? "" : `the first can be extracted from ${utc(sessions.eligibleAt)}`,
    sessions.tooOld > 0
      ? `${sessions.tooOld} too old (last updated more than memories.maxRolloutAgeDays = ${maxRolloutAgeDays} days ago; to include them: cairn config set memories.maxRolloutAgeDays ${sessions.includeWithMaxRolloutAgeDays})`
      : "",
    sessions.kindExcluded > 0
      ? `${sessions.kindExcluded} of a kind memories.allowedKinds leaves out (${config.memories.allowedKinds.join(", ")} taken)`
      : "",
    sessions.backingOff > 0 ? `${sessions.backingOff} failed and retried later` : "",
    sessions.dead > 0
      ? `${sessions.dead} failed permanently ('cairn status' says why; 'cairn run --retry-dead' retries them)`
      : "",
  ].filter(Boolean);
}

/** A time as people read it in a log line: minute precision, UTC said. */
function utc(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
