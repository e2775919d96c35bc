import type { Cairn } from "../cairn.js";
import { EXCLUDED_MARK } from "../project/exclusion.js";
import { eligibilityWindow } from "../store/eligibilityWindow.js";
import { PHASE1_KIND } from "../store/queue/jobKinds.js";
import { toIso } from "../util/clock.js";

/**
 * Where a session stands in the pipeline, as `cairn sessions` and the memory browser show it. `too old`:
 * it waits, but was last updated before `memories.maxRolloutAgeDays`, so no run extracts it (a run says
 * which setting would).
 */
export type SessionState = "excluded" | "dead" | "too old" | "pending" | "processed" | "new";

export interface SessionRow {
  id: string;
  agent: string;
  kind: string;
  cwd: string | null;
  project: string | null;
  title: string | null;
  parentId: string | null;
  items: number;
  startedAt: string | null;
  updatedAt: string | null;
  invalidatedAt: number | null;
  processedUntil: number | null;
  excluded: boolean;
  dead: boolean;
  state: SessionState;
}

/** The collected sessions, newest first, each with its pipeline state. */
export function sessionRows(cairn: Cairn, filter: { agent?: string; limit?: number } = {}): SessionRow[] {
  // A session whose extraction failed for good is not "pending": no run picks it up until
  // `cairn run --retry-dead` (or a change to its transcript) gives it fresh attempts.
  const dead = new Set(
    cairn.storage.jobs.list({ kind: PHASE1_KIND, status: "dead", limit: 100_000 }).map((job) => job.key),
  );
  const { oldest } = eligibilityWindow(cairn.config, cairn.clock());
  return cairn.sessions(filter).map((session) => {
    const row = {
      id: session.id,
      agent: session.agent,
      kind: session.kind,
      cwd: session.cwd,
      project: session.projectKey,
      title: session.title,
      parentId: session.parentId,
      items: session.items,
      startedAt: toIso(session.startedAt),
      updatedAt: toIso(session.updatedAt),
      invalidatedAt: session.invalidatedAt,
      processedUntil: session.processedUntil,
      excluded: session.contentHash === EXCLUDED_MARK,
      dead: dead.has(session.id),
    };
    const state: SessionState = row.excluded
      ? "excluded"
      : row.dead
        ? "dead"
        : row.invalidatedAt !== null
          ? session.updatedAt !== null && session.updatedAt < oldest
            ? "too old"
            : "pending"
          : row.processedUntil !== null
            ? "processed"
            : "new";
    return { ...row, state };
  });
}
