import { runContinuity } from "../pipeline/continuity/runContinuity.js";
import { runPeriodicJob } from "./runQueuedJobs.js";
import type { WorkerFactory } from "./workerSet.js";

export const CONTINUITY_KIND = "continuity";
/** Sessions scored per cycle: a model call each. */
const SESSIONS_PER_CYCLE = 8;
/** How often the worker looks for sessions to score; a session is scored once it ended or phase 1 took it. */
const INTERVAL_MS = 60_000;

/**
 * The continuity worker (seed 004): each minute, one job on the queue moves the session-start
 * injection log into the store and scores the sessions that are ready. Off with
 * `workers.continuity.enabled` or `workers.continuity.scoring` false.
 */
export const continuityWorker: WorkerFactory = (host) => {
  const settings = host.config.workers.continuity;
  const off = !settings.enabled
    ? "workers.continuity.enabled is false"
    : !settings.scoring
      ? "workers.continuity.scoring is false"
      : undefined;
  return {
    name: "continuity",
    intervalMs: INTERVAL_MS,
    ...(off === undefined ? {} : { scheduleOff: off }),
    cycle: async () => {
      const storage = host.storage;
      const cycle = await runPeriodicJob({
        jobs: storage.jobs,
        kind: CONTINUITY_KIND,
        intervalMs: INTERVAL_MS,
        now: host.clock(),
        leaseMs: host.config.queue.leaseSeconds * 1000,
        work: async () => {
          const report = await runContinuity({
            storage,
            home: host.home,
            llm: await host.llm(),
            now: host.clock,
            limit: SESSIONS_PER_CYCLE,
          });
          if (report.unreadable > 0) {
            host.log(`continuity: ${report.unreadable} lines of the injection log were not records; skipped`);
          }
          if (report.modelFailures > 0) {
            host.log(`continuity: the model failed for ${report.modelFailures} sessions; scored from evidence`);
          }
          return { processed: report.scored, result: report };
        },
      });
      return { ...cycle, queueDepth: storage.continuity.unscored() };
    },
  };
};
