import { runHealthCycle, storeRepairs } from "../memory/health/runHealthCycle.js";
import { HEALTH_KIND } from "../store/queue/jobKinds.js";
import { retentionWorker } from "./retentionWorker.js";
import { runPeriodicJob } from "./runQueuedJobs.js";
import type { WorkerFactory } from "./workerSet.js";

/** Wall time the re-embed repair may spend in one cycle; the embeddings worker does the rest. */
const REEMBED_BUDGET_MS = 10_000;

/**
 * The maintenance worker (seed 004): every `workers.maintenance.intervalMs`, one health cycle on the
 * queue (a periodic job, so two processes never run it at once). Its schedule stays off when the
 * worker is disabled or `pipeline.autonomousFrozen` is set; `cairn doctor` still runs a cycle on
 * demand in observe mode.
 */
export const maintenanceWorker: WorkerFactory = (host) => {
  const settings = host.config.workers.maintenance;
  const off = !settings.enabled
    ? "workers.maintenance.enabled is false"
    : host.config.pipeline.autonomousFrozen
      ? "pipeline.autonomousFrozen is true"
      : undefined;
  return {
    name: "maintenance",
    intervalMs: settings.intervalMs,
    ...(off === undefined ? {} : { scheduleOff: off }),
    cycle: async () => {
      const storage = host.storage;
      return runPeriodicJob({
        jobs: storage.jobs,
        kind: HEALTH_KIND,
        intervalMs: settings.intervalMs,
        now: host.clock(),
        leaseMs: host.config.queue.leaseSeconds * 1000,
        work: async () => {
          const report = await runHealthCycle({
            storage,
            now: host.clock,
            mode: settings.mode,
            limits: settings,
            embeddingModel: host.embeddingModel(),
            repairs: {
              ...storeRepairs(storage, host.clock),
              reembed: async () => {
                // The tracker off, a drain writes nothing: say so rather than report a repair that ran.
                if (!host.config.recall.embeddingTracker.enabled)
                  throw new Error("recall.embeddingTracker.enabled is false");
                return host.refreshEmbeddings(REEMBED_BUDGET_MS);
              },
              triggerRetention: async () => {
                if (!host.config.workers.retention.enabled) throw new Error("workers.retention.enabled is false");
                return (await retentionWorker(host, { force: true }).cycle()).processed;
              },
            },
          });
          for (const action of report.actions) {
            if (action.outcome === "ran" || action.outcome === "failed") {
              host.log(
                `maintenance: ${action.action} ${action.outcome} (${action.reason}; health ${action.delta && action.delta >= 0 ? "+" : ""}${action.delta ?? 0})`,
              );
            }
          }
          const done = report.actions.filter((a) => a.outcome === "ran").length;
          return { processed: done, result: { score: report.health.score, after: report.healthAfter?.score } };
        },
      });
    },
  };
};
