import { REVISE_KIND } from "../../store/queue/jobKinds.js";
import type { Lease } from "../../store/queue/types.js";
import { rethrowStoreFault } from "../../store/storeFault.js";
import { withWriteTx } from "../../store/tx.js";
import { errorMessage } from "../../util/errors.js";
import type { MemoryStore } from "../memoryStore.js";
import type { MemoryRecord } from "../types.js";
import { type ReviseMode, type ReviseReport, reviseMemories } from "./reviseMemories.js";
import { WordCounts } from "./supersessionCandidates.js";

/** Revise jobs claimed at once; a cycle claims again until none is left or `maxJobs` ran. */
const BATCH = 200;

/**
 * The model's decisions over memories the syntactic pass left live, batched (one call for the lot).
 * This is where the decision stage plugs in when a model is configured; without one nothing is called.
 */
export type ReviseDecisions = (memories: MemoryRecord[]) => Promise<void>;

export interface ReviseJobsOptions {
  store: MemoryStore;
  /** Only the jobs of these memories (a remember door revising what it just wrote); all pending otherwise. */
  ids?: number[];
  mode?: ReviseMode;
  decisions?: ReviseDecisions;
  /** At most this many jobs per call (the cycle's bound); default: every pending one. */
  maxJobs?: number;
}

export interface ReviseJobsReport extends ReviseReport {
  /** Memories whose job finished. */
  done: number;
  /** One line per batch that failed (its jobs are retried with the queue's backoff). */
  warnings: string[];
}

/**
 * Runs pending revise jobs: same-subject supersession for each memory, then the model's decisions
 * when given. A remember door passes the ids it just wrote and answers once they are revised; the
 * pipeline cycle runs whatever is pending (memories written by extraction, or by a door that failed
 * before revising).
 */
export async function runReviseJobs(options: ReviseJobsOptions): Promise<ReviseJobsReport> {
  const { store } = options;
  const { jobs } = store.storage;
  const report: ReviseJobsReport = { superseded: [], flagged: [], done: 0, warnings: [] };
  // The keys not yet claimed.
  let keys = options.ids?.map(String);
  const maxJobs = options.maxJobs ?? Number.MAX_SAFE_INTEGER;
  // Word counts are shared by every batch of this run: an import asks for the same words again and again.
  const counts = new WordCounts(store.storage);
  while (report.done < maxJobs) {
    const limit = Math.min(BATCH, maxJobs - report.done, keys?.length ?? BATCH);
    // The next keys in order, not every key left: the claim matches its keys against the queue, and
    // the whole list for every batch made a large import's claims grow with its size squared. Jobs the
    // run just enqueued come in that order (run_after, then id), so the batches are the same.
    const leases = jobs.claim({ kind: REVISE_KIND, limit, ...(keys ? { keys: keys.slice(0, limit) } : {}) });
    if (leases.length === 0) break;
    jobs.start(...leases);
    try {
      const ids = leases.map(memoryIdOf);
      const revised = reviseMemories(store, ids, { counts, ...(options.mode ? { mode: options.mode } : {}) });
      if (options.decisions) {
        const live = ids.map((id) => store.get(id)).filter((m): m is MemoryRecord => m?.deletedAt === null);
        if (live.length > 0) await options.decisions(live);
      }
      // One commit for the batch's jobs, not one each (a savepoint per job inside it).
      withWriteTx(store.storage.db, () => {
        for (const lease of leases) jobs.succeed(lease);
      });
      report.superseded.push(...revised.superseded);
      report.flagged.push(...revised.flagged);
      report.done += leases.length;
    } catch (error) {
      rethrowStoreFault(error);
      for (const lease of leases) jobs.fail(lease, errorMessage(error));
      report.warnings.push(`revise failed for ${leases.length} memories: ${errorMessage(error)}`);
      break;
    }
    if (keys) {
      if (leases.length >= keys.length) break;
      const claimed = new Set(leases.map((lease) => lease.key));
      keys = keys.filter((key) => !claimed.has(key));
    }
  }
  return report;
}

function memoryIdOf(lease: Lease): number {
  const id = (lease.payload as { memoryId?: unknown } | null)?.memoryId ?? Number(lease.key);
  if (typeof id !== "number" || !Number.isInteger(id)) throw new Error(`revise job ${lease.key} names no memory`);
  return id;
}
