import { REVISE_KIND } from "../../store/queue/jobKinds.js";
import type { JobQueue } from "../../store/queue/jobQueue.js";
import type { Lease } from "../../store/queue/types.js";
import { rethrowStoreFault } from "../../store/storeFault.js";
import { withWriteTx } from "../../store/tx.js";
import { errorMessage } from "../../util/errors.js";
import type { MemoryStore } from "../memoryStore.js";
import type { MemoryRecord } from "../types.js";
import { memoryIdsOf, REVISE_BATCH } from "./reviseJobFor.js";
import { type ReviseMode, type ReviseReport, reviseMemories } from "./reviseMemories.js";
import { WordCounts } from "./supersessionCandidates.js";

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
  // The memories whose jobs are not yet claimed, in the order they were written.
  let pending = options.ids;
  let jobsLeft = options.maxJobs ?? Number.MAX_SAFE_INTEGER;
  // Word counts are shared by every batch of this run: an import asks for the same words again and again.
  const counts = new WordCounts(store.storage);
  while (jobsLeft > 0 && (pending === undefined || pending.length > 0)) {
    const leases = claimBatch(jobs, jobsLeft, pending);
    if (leases.length === 0) break;
    jobsLeft -= leases.length;
    jobs.start(...leases);
    try {
      const ids = leases.flatMap(memoryIdsOf);
      const mode = options.mode ? { mode: options.mode } : {};
      const { decisions } = options;
      let revised: ReviseReport;
      if (decisions) {
        revised = reviseMemories(store, ids, { counts, ...mode });
        const live = ids.map((id) => store.get(id)).filter((m): m is MemoryRecord => m?.deletedAt === null);
        if (live.length > 0) await decisions(live);
        withWriteTx(store.storage.db, () => {
          for (const lease of leases) jobs.succeed(lease);
        });
      } else {
        // The revise and its jobs' completion commit together: a crash leaves either both or neither, so
        // a job found interrupted has written nothing and is simply run again.
        revised = reviseMemories(store, ids, {
          counts,
          ...mode,
          commitWith: () => {
            for (const lease of leases) jobs.succeed(lease);
          },
        });
      }
      report.superseded.push(...revised.superseded);
      report.flagged.push(...revised.flagged);
      report.done += ids.length;
      if (pending) {
        const claimed = new Set(ids);
        pending = pending.filter((id) => !claimed.has(id));
      }
    } catch (error) {
      rethrowStoreFault(error);
      for (const lease of leases) jobs.fail(lease, errorMessage(error));
      report.warnings.push(`revise failed for ${leases.length} memories: ${errorMessage(error)}`);
      break;
    }
  }
  return report;
}

/**
 * The next jobs to revise together: as many as fit in one batch of `REVISE_BATCH` memories (always
 * one), the rest of what the claim took given back untouched. With `pending` (a door revising what it
 * just wrote), only jobs keyed by its next memories: a job's key is its first memory, and the jobs a
 * door enqueued come in the order it wrote them (run_after, then id); matching the whole list for
 * every batch made a large import's claims grow with its size squared.
 */
function claimBatch(jobs: JobQueue, jobsLeft: number, pending: readonly number[] | undefined): Lease[] {
  const limit = Math.min(REVISE_BATCH, jobsLeft, pending?.length ?? REVISE_BATCH);
  const keys = pending?.slice(0, limit).map(String);
  const claimed = jobs.claim({ kind: REVISE_KIND, limit, ...(keys ? { keys } : {}) });
  const taken: Lease[] = [];
  let size = 0;
  for (const lease of claimed) {
    const count = memoriesIn(lease);
    if (taken.length > 0 && size + count > REVISE_BATCH) jobs.release(lease);
    else {
      taken.push(lease);
      size += count;
    }
  }
  return taken;
}

/** How many memories a job names; a job that names none counts one (its run fails and says why). */
function memoriesIn(lease: Lease): number {
  try {
    return memoryIdsOf(lease).length;
  } catch {
    return 1;
  }
}
