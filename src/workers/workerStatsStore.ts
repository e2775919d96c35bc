import type { Database } from "better-sqlite3";
import type { MetaRepo } from "../store/contracts/meta.js";
import { withWriteTx } from "../store/tx.js";
import { emptyWorkerStats, type WorkerCycle, type WorkerStats, type WorkerStatsSink } from "./backgroundWorker.js";

const key = (name: string) => `worker:${name}`;

/**
 * Worker stats kept in the store's meta table: `cairn run`, the daemon and the MCP server are different
 * processes, and `cairn status` is yet another, so the totals live where all of them can read them.
 * Each record is one short read-modify-write transaction, so two processes never lose a count.
 */
export function storeStatsSink(storage: () => { db: Database; meta: MetaRepo }): WorkerStatsSink {
  return {
    record(name, outcome, at) {
      const { db, meta } = storage();
      withWriteTx(db, () => {
        const stats = { ...emptyWorkerStats(), ...meta.get<WorkerStats>(key(name)), running: false };
        stats.lastCycleAt = at;
        if ("error" in outcome) {
          stats.failed++;
          stats.lastError = outcome.error;
        } else {
          addCycle(stats, outcome);
        }
        meta.set(key(name), stats);
      });
    },
  };
}

function addCycle(stats: WorkerStats, cycle: WorkerCycle): void {
  stats.processed += cycle.processed;
  stats.failed += cycle.failed;
  stats.queueDepth = cycle.queueDepth;
  if (cycle.skipped !== undefined) {
    stats.skippedCycles++;
    stats.lastSkip = cycle.skipped;
  } else {
    stats.lastError = null;
  }
}

/**
 * The stored stats of each named worker (zeros for one that never ran), with `running` from the
 * workers of this process when it has them (the daemon's status route).
 */
export function readWorkerStats(
  meta: MetaRepo,
  names: readonly string[],
  live: ReadonlyMap<string, WorkerStats> = new Map(),
): Record<string, WorkerStats> {
  const out: Record<string, WorkerStats> = {};
  for (const name of names) {
    const stored = { ...emptyWorkerStats(), ...meta.get<WorkerStats>(key(name)) };
    out[name] = { ...stored, running: live.get(name)?.running ?? false };
  }
  return out;
}
