import { MAINTENANCE_KIND } from "../store/queue/jobKinds.js";
import type { Lease } from "../store/queue/types.js";
import type { Storage } from "../store/storage.js";
import { rethrowStoreFault } from "../store/storeFault.js";
import { withWriteTx } from "../store/tx.js";
import { conceptWords, shippedLexicon } from "../text/lexicon/concepts.js";
import { errorMessage } from "../util/errors.js";
import { type ExclusionErasure, eraseExcludedSessions } from "./eraseExcludedSessions.js";
import { moveProjectlessFacts } from "./moveProjectlessFacts.js";

/** Rows per write transaction: short transactions, so a CLI call or a recall never waits long. */
const PAGE = 500;

export interface MaintenanceReport {
  /** Keys of the jobs that finished. */
  done: string[];
  /** One line per job that failed (it is retried by a later run, with the queue's backoff). */
  warnings: string[];
  /** Why the step did not run (a scheduled cycle while pipeline.autonomousFrozen is true). */
  skipped?: string;
  /** What was erased because `memories.exclude` now covers sessions it had been learned from. */
  excluded?: ExclusionErasure;
}

export type MaintenanceTask = (storage: Storage, lease: Lease, now: () => number) => void | Promise<void>;

/**
 * What each maintenance job of the store does, by key (the keys the migrations that queue them wrote
 * out). Jobs that need a layer above the store's services (re-reading sessions with an extractor)
 * are given by the caller (`tasks`).
 */
const storeTasks: Record<string, MaintenanceTask> = {
  "concepts-backfill": backfillConcepts,
  "no-project-scope": moveProjectlessFacts,
};

/**
 * Erases what excluded sessions taught, then runs the pending maintenance jobs of the store (data work
 * a migration cannot do in frozen SQL).
 * Call it from a write path (the pipeline cycle of `cairn run` and the daemon); an idle store pays one
 * indexed lookup.
 */
export async function runMaintenanceJobs(options: {
  storage: Storage;
  now?: () => number;
  tasks?: Record<string, MaintenanceTask>;
}): Promise<MaintenanceReport> {
  const { storage } = options;
  const now = options.now ?? Date.now;
  const tasks = { ...storeTasks, ...options.tasks };
  const report: MaintenanceReport = { done: [], warnings: [] };
  // Not a queued job: a session is excluded by editing the config, which queues nothing. One query a run.
  const excluded = eraseExcludedSessions(storage, now());
  if (excluded) report.excluded = excluded;
  for (const lease of storage.jobs.claim({ kind: MAINTENANCE_KIND, limit: 10, runningCap: 1 })) {
    const task = tasks[lease.key];
    // One task at a time: the ones claimed behind it spend no attempt if the process dies in this one.
    storage.jobs.start(lease);
    try {
      if (!task) throw new Error(`no maintenance task named ${lease.key}; a newer cairn may know it`);
      await task(storage, lease, now);
      storage.jobs.succeed(lease);
      report.done.push(lease.key);
    } catch (error) {
      rethrowStoreFault(error);
      storage.jobs.fail(lease, errorMessage(error));
      report.warnings.push(`maintenance ${lease.key} failed: ${errorMessage(error)}`);
    }
  }
  return report;
}

/**
 * The concept words of the memories stored before concept indexing existed (migration 004), at the
 * depth the job recorded. Resumable: rows already filled are skipped on a retry.
 */
function backfillConcepts(storage: Storage, lease: Lease): void {
  const { upTo, depth } = lease.payload as { upTo: number; depth: number };
  const lexicon = shippedLexicon();
  for (let after = 0; ; ) {
    const rows = storage.memories.withoutConcepts(after, upTo, PAGE);
    if (rows.length === 0) return;
    withWriteTx(storage.db, () => {
      for (const row of rows) {
        const words = conceptWords(row.content, lexicon, depth);
        if (words.length > 0) storage.memories.setConceptTerms(row.id, words.join(" "));
      }
    });
    after = rows[rows.length - 1]!.id;
    storage.jobs.heartbeat(lease);
  }
}
