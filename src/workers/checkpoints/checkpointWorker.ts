import type { Storage } from "../../store/storage.js";
import { withWriteTx } from "../../store/tx.js";
import type { WorkerCycle } from "../backgroundWorker.js";
import { runPeriodicJob } from "../runQueuedJobs.js";
import type { WorkerName } from "../workerNames.js";
import type { WorkerFactory } from "../workerSet.js";
import { readCheckpointSource } from "./captureCheckpoint.js";
import { type ContinuitySettings, writeCheckpoint } from "./writeCheckpoint.js";

/** The worker's name (its stats' key); its settings are `workers.continuity`. */
export const CHECKPOINTS_WORKER: WorkerName = "checkpoints";
/** Job kinds on the one queue: the sweep that writes periodic checkpoints, and the retention prune. */
export const CHECKPOINT_SWEEP_KIND = "checkpoint_sweep";
export const CHECKPOINT_PRUNE_KIND = "checkpoint_prune";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Rows per prune step, each its own short write transaction (seed 004's retention batches). */
const PRUNE_BATCH = 500;
/** Open sessions looked at per sweep, newest first. */
const SWEEP_SESSIONS = 50;
const LEASE_MS = 5 * MINUTE;

/**
 * The session checkpoints worker (seed 004): once a minute a sweep job writes a `periodic` checkpoint of
 * each open interactive session that reached `promptInterval` new prompts, or `timeIntervalMs` since
 * its last checkpoint with new activity; once an hour a prune job hard-deletes the checkpoints older
 * than `retentionDays`. Both are periodic jobs on the one queue, so whichever process claims one runs
 * it, a failure is retried with backoff, and two processes never run the same period twice. The other
 * triggers (pre-compaction, session end, agent, explicit) write at once from their doors.
 */
export const checkpointWorker: WorkerFactory = (host) => {
  const settings = () => host.config.workers.continuity;
  return {
    name: CHECKPOINTS_WORKER,
    intervalMs: MINUTE,
    ...(settings().enabled ? {} : { scheduleOff: "workers.continuity.enabled is false" }),
    cycle: async () => {
      const storage = host.storage;
      const now = host.clock();
      const sweep = await runPeriodicJob({
        jobs: storage.jobs,
        kind: CHECKPOINT_SWEEP_KIND,
        key: "sessions",
        intervalMs: MINUTE,
        now,
        leaseMs: LEASE_MS,
        work: async () => ({
          processed: await periodicCheckpoints(storage, settings(), host.clock, host.config.memories.exclude),
        }),
      });
      const prune = await runPeriodicJob({
        jobs: storage.jobs,
        kind: CHECKPOINT_PRUNE_KIND,
        key: "retention",
        intervalMs: HOUR,
        now,
        leaseMs: LEASE_MS,
        work: async () => {
          const pruned = pruneCheckpoints(storage, settings().retentionDays, host.clock());
          if (pruned > 0) host.log(`checkpoints: pruned ${pruned} older than ${settings().retentionDays} days`);
          return { processed: pruned, result: { pruned } };
        },
      });
      return combine(sweep, prune);
    },
  };
};

function combine(a: WorkerCycle, b: WorkerCycle): WorkerCycle {
  const cycle: WorkerCycle = {
    processed: a.processed + b.processed,
    failed: a.failed + b.failed,
    queueDepth: a.queueDepth + b.queueDepth,
  };
  if (a.skipped !== undefined && b.skipped !== undefined) cycle.skipped = a.skipped;
  return cycle;
}

/**
 * Writes a periodic checkpoint of each open session that is due: `promptInterval` prompts since its
 * last checkpoint, or `timeIntervalMs` since it (since its start, for a first one) with activity after
 * it. Returns the checkpoints written.
 */
export async function periodicCheckpoints(
  storage: Storage,
  settings: ContinuitySettings,
  clock: () => number,
  exclude: readonly string[],
): Promise<number> {
  if (!settings.enabled) return 0;
  const { checkpoints } = storage;
  const now = clock();
  let written = 0;
  for (const session of checkpoints.activeSessions(now - settings.timeIntervalMs, SWEEP_SESSIONS)) {
    if (session.lastAt !== null && session.updatedAt <= session.lastAt) continue;
    const since = session.lastAt ?? session.startedAt;
    const timeDue = now - since >= settings.timeIntervalMs;
    // A cheap upper bound first (every user item, harness text included); the snapshot counts exactly.
    const users = storage.items.countWithText(session.id, ["user"]);
    if (!timeDue && users - session.lastTotal < settings.promptInterval) continue;
    const capture = await readCheckpointSource(storage, { trigger: "periodic", sessionKey: session.id, exclude }, now);
    if ("reason" in capture) continue;
    const newPrompts = capture.snapshot.promptTotal - session.lastTotal;
    if (newPrompts < settings.promptInterval && !timeDue) continue;
    writeCheckpoint(storage, capture, settings, clock());
    written++;
  }
  return written;
}

/** Hard-deletes the checkpoints last written more than `retentionDays` ago, a batch per transaction. */
export function pruneCheckpoints(storage: Storage, retentionDays: number, now: number): number {
  const { checkpoints } = storage;
  const cutoff = now - retentionDays * DAY;
  let total = 0;
  for (;;) {
    const pruned = withWriteTx(storage.db, () => checkpoints.pruneBefore(cutoff, PRUNE_BATCH));
    total += pruned;
    if (pruned < PRUNE_BATCH) return total;
  }
}
