import { purgedRows, type RetentionReport, runRetention } from "../memory/retention/runRetention.js";
import type { WorkerSpec } from "./backgroundWorker.js";
import { runPeriodicJob } from "./runQueuedJobs.js";
import type { WorkerHost } from "./workerSet.js";

/** The retention worker's periodic job on the queue: one row, reopened once a period. */
export const RETENTION_KIND = "retention";
const RETENTION_KEY = "sweep";

/**
 * The retention worker (seed 004): every `workers.retention.intervalMs` (6 h), whichever cairn process
 * claims the period's job first runs one sweep (src/memory/retention/runRetention.ts). A sweep that
 * fails is retried with the queue's backoff; the next period starts afresh. `force` (an on-demand
 * sweep: `cairn doctor --retention`) runs one now even when this period's is done; `onReport` sees
 * what it purged.
 */
export function retentionWorker(
  host: Pick<WorkerHost, "storage" | "config" | "clock" | "log">,
  options: { force?: boolean; onReport?: (report: RetentionReport) => void } = {},
): WorkerSpec {
  const { intervalMs, enabled } = host.config.workers.retention;
  return {
    name: "retention",
    intervalMs,
    ...(enabled ? {} : { scheduleOff: "workers.retention.enabled is false" }),
    cycle: async () => {
      const { storage, config } = host;
      return runPeriodicJob({
        jobs: storage.jobs,
        kind: RETENTION_KIND,
        key: RETENTION_KEY,
        intervalMs,
        now: host.clock(),
        leaseMs: config.queue.leaseSeconds * 1000,
        ...(options.force ? { force: true } : {}),
        work: async () => {
          const report = runRetention({ storage, settings: config.workers.retention, now: host.clock() });
          options.onReport?.(report);
          const rows = purgedRows(report);
          // Finished jobs go every sweep; a line is worth it when memories, documents, entities or history went.
          if (report.memories + report.documents + report.entities + report.history > 0)
            host.log(`retention: ${describeRetention(report)}`);
          return { processed: rows, result: { ...report, bytes: undefined } };
        },
      });
    },
  };
}

/** "3 expired memories, 3 embeddings, 12 history rows, 500 finished jobs purged (more at the next sweep)". */
export function describeRetention(report: RetentionReport): string {
  const parts = [
    [report.memories, "expired memory", "expired memories"],
    [report.documents, "forgotten document", "forgotten documents"],
    [report.entities, "orphan entity", "orphan entities"],
    [report.embeddings, "embedding", "embeddings"],
    [report.history, "history row", "history rows"],
    [report.completedJobs + report.deadJobs, "finished job", "finished jobs"],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  if (said.length === 0) return "nothing has outlived its window";
  const log =
    report.bytes && !report.bytes.walEmptied
      ? "; the write-ahead log still holds old pages (another process reads)"
      : "";
  return `${said.join(", ")} purged${report.more ? " (more at the next sweep)" : ""}${log}`;
}
