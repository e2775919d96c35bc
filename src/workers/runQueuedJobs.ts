import type { JobQueue } from "../store/queue/jobQueue.js";
import { startLeaseHeartbeat } from "../store/queue/leaseHeartbeat.js";
import type { Lease } from "../store/queue/types.js";
import { errorMessage } from "../util/errors.js";
import type { WorkerCycle } from "./backgroundWorker.js";

type Queue = Pick<JobQueue, "enqueue" | "claim" | "start" | "heartbeat" | "succeed" | "fail" | "stats">;

/** What a job's work reports: units done, and an optional result stored on the job. */
export interface JobWork {
  processed: number;
  result?: unknown;
}

/**
 * Claims runnable jobs of one kind (at most `limit`, one at a time so a crash costs one job's
 * attempt), runs `work` on each under a heartbeat, and records the outcome on the queue: success, or a
 * failure that the queue retries with backoff and jitter and ends dead after its attempts. This is
 * every worker's way onto the one queue; the work itself must be idempotent, since a job whose holder
 * dies is run again.
 */
export async function runQueuedJobs(options: {
  jobs: Queue;
  kind: string;
  limit: number;
  leaseMs: number;
  work: (lease: Lease) => Promise<JobWork>;
  /** Keys to claim among (a periodic job's one key). */
  keys?: string[];
}): Promise<WorkerCycle> {
  const { jobs, kind } = options;
  const cycle: WorkerCycle = { processed: 0, failed: 0, queueDepth: 0 };
  let claimed = 0;
  while (claimed < options.limit) {
    const [lease] = jobs.claim({
      kind,
      limit: 1,
      runningCap: 1,
      leaseMs: options.leaseMs,
      ...(options.keys ? { keys: options.keys } : {}),
    });
    if (!lease) break;
    claimed++;
    jobs.start(lease);
    const heartbeat = startLeaseHeartbeat({ jobs, leases: [lease], leaseMs: options.leaseMs });
    try {
      const done = await options.work(lease);
      cycle.processed += done.processed;
      jobs.succeed(lease, done.result === undefined ? {} : { result: done.result });
    } catch (error) {
      cycle.failed++;
      jobs.fail(lease, errorMessage(error));
    } finally {
      heartbeat.stop();
    }
  }
  const counts = jobs.stats()[kind] ?? {};
  cycle.queueDepth = (counts.pending ?? 0) + (counts.failed ?? 0);
  if (claimed === 0) cycle.skipped = "nothing due";
  return cycle;
}

/**
 * A periodic job on the queue: one job per worker whose watermark is the current period, so the job
 * reopens once each `intervalMs` (dedupe at enqueue keeps it one row), runs when due in whichever
 * process claims it first, and a failed period is retried with backoff until the next one starts
 * afresh. `force` runs it now even if this period's run is done (an on-demand sweep).
 */
export function enqueuePeriodic(
  jobs: Pick<JobQueue, "enqueue">,
  options: { kind: string; key: string; intervalMs: number; now: number; force?: boolean },
): void {
  const period = Math.floor(options.now / options.intervalMs);
  jobs.enqueue({
    kind: options.kind,
    key: options.key,
    watermark: period,
    runAfter: options.force ? options.now : period * options.intervalMs,
    ...(options.force ? { force: true } : {}),
  });
}

/**
 * One period's job of a periodic worker: enqueued for the current period, then run if due
 * (`enqueuePeriodic`, then `runQueuedJobs` on that one job). Its key is its kind unless `key` names
 * another (then only that key's job is claimed); `force` as in enqueuePeriodic.
 */
export function runPeriodicJob(options: {
  jobs: Queue;
  kind: string;
  key?: string;
  intervalMs: number;
  now: number;
  leaseMs: number;
  force?: boolean;
  work: (lease: Lease) => Promise<JobWork>;
}): Promise<WorkerCycle> {
  const { jobs, kind, intervalMs, now, leaseMs, work } = options;
  const key = options.key ?? kind;
  enqueuePeriodic(jobs, { kind, key, intervalMs, now, ...(options.force ? { force: true } : {}) });
  return runQueuedJobs({ jobs, kind, limit: 1, leaseMs, work, ...(options.key ? { keys: [key] } : {}) });
}
