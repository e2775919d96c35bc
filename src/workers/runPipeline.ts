import type { CairnPaths } from "../config/paths.js";
import { type CycleHost, runCycle } from "../pipeline/cycle.js";
import type { HintsReport } from "../pipeline/hints/generateHints.js";
import { STRUCTURAL_OFF } from "../pipeline/structural/classifyStructure.js";
import { PHASE1_KIND, PHASE2_KIND } from "../store/queue/jobKinds.js";
import type { JobQueue } from "../store/queue/jobQueue.js";
import { explainStoreError } from "../store/storeFault.js";
import { errorMessage } from "../util/errors.js";
import { acquireRunLock } from "./runLock.js";

export interface CycleReport {
  startedAt: number;
  ms: number;
  /** `skipped` when another run held the lock or a phase lease; `failed` when a step threw. */
  outcome: "completed" | "skipped" | "failed";
  reason?: string;
  scan?: { files: number; imported: number; updated: number };
  phase1?: { extracted: number; failed: number; claimed: number };
  phase2?: string;
  /** Prospective hints, when `recall.hints.enabled`. */
  hints?: { indexed: number; failed: number; pending: number; skipped?: string };
  /** Structural classification, when `pipeline.structural.enabled`. */
  structural?: { classified: number; failed: number; waiting: number; skipped?: string };
  /** Background workers that did work this cycle, by name: units done and failed. */
  workers?: Record<string, { processed: number; failed: number }>;
  error?: string;
}

/**
 * What a background cycle needs besides the steps: the memory root (for the run lock), the store's path
 * (to mark it damaged), the queue, the config.
 */
export interface PipelineHost extends CycleHost {
  paths: Pick<CairnPaths, "home" | "database">;
  storage: { jobs: Pick<JobQueue, "stats"> };
  config: { recall: { hints: { enabled: boolean } }; pipeline: { autonomousFrozen: boolean } };
}

/** True while some process holds a live phase-1 or phase-2 lease (expired ones count as `stale`, not running). */
export function pipelineBusy(host: Pick<PipelineHost, "storage">): boolean {
  const stats = host.storage.jobs.stats();
  return (stats[PHASE1_KIND]?.running ?? 0) > 0 || (stats[PHASE2_KIND]?.running ?? 0) > 0;
}

/**
 * One pipeline cycle, the same steps as `cairn run` (pipeline/cycle.ts), under the machine-wide run
 * lock; `skipIfBusy` also skips when another process (a `cairn run` in a terminal) holds a phase
 * lease, so a background run never scans just to find the phases taken. Nobody asked for this cycle,
 * so `pipeline.autonomousFrozen` leaves its maintenance step out (an on-demand `cairn run` still runs it).
 */
export async function runPipelineCycle(
  host: PipelineHost,
  options: { skipIfBusy?: boolean; now?: () => number } = {},
): Promise<CycleReport> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const report: CycleReport = { startedAt, ms: 0, outcome: "completed" };
  const lock = acquireRunLock(host.paths.home, startedAt);
  if (!lock) return { ...report, outcome: "skipped", reason: "another background run holds the lock" };
  try {
    if (options.skipIfBusy && pipelineBusy(host)) {
      return { ...report, outcome: "skipped", reason: "a run is in progress in another process" };
    }
    await runCycle(host, {
      ...(host.config.pipeline.autonomousFrozen ? { skipMaintenance: "pipeline.autonomousFrozen is true" } : {}),
      onStepDone: (done) => {
        if (done.name === "scan") {
          const { files, totals } = done.report;
          report.scan = { files: files.length, imported: totals.imported, updated: totals.updated };
        } else if (done.name === "extract") {
          const count = (outcome: string) => done.report.jobs.filter((job) => job.outcome === outcome).length;
          report.phase1 = {
            claimed: done.report.jobs.length,
            extracted: count("succeeded"),
            failed: count("failed") + count("dead"),
          };
        } else if (done.name === "consolidate") {
          report.phase2 = done.report.outcome;
          if (done.report.error) report.error = done.report.error;
        } else if (done.name === "hints" && host.config.recall.hints.enabled) {
          report.hints = summarizeHints(done.report);
        } else if (done.name === "structural" && done.report.reason !== STRUCTURAL_OFF) {
          const { classified, failed, waiting, reason } = done.report;
          report.structural = { classified, failed, waiting, ...(reason === undefined ? {} : { skipped: reason }) };
        } else if (done.name === "workers") {
          const busy = Object.entries(done.report).filter(([, cycle]) => cycle.processed > 0 || cycle.failed > 0);
          if (busy.length > 0) {
            report.workers = Object.fromEntries(
              busy.map(([name, cycle]) => [name, { processed: cycle.processed, failed: cycle.failed }]),
            );
          }
        }
      },
    });
  } catch (error) {
    report.outcome = "failed";
    // A damaged store met anywhere in the cycle is marked, so the daemon's next writes are refused.
    report.error = errorMessage(explainStoreError(error, host.paths.database));
  } finally {
    lock.release();
    report.ms = now() - startedAt;
  }
  return report;
}

/** The part of a hints pass a cycle report keeps. */
export function summarizeHints(report: HintsReport): NonNullable<CycleReport["hints"]> {
  return {
    indexed: report.indexed,
    failed: report.failed,
    pending: report.pending,
    ...(report.reason === undefined ? {} : { skipped: report.reason }),
  };
}

/** The one line a daemon cycle or a background run logs. */
export function formatCycle(report: CycleReport): string {
  const time = new Date(report.startedAt).toISOString();
  if (report.outcome === "skipped") return `${time} pipeline skipped: ${report.reason}`;
  const parts = [`${time} pipeline ${report.outcome} in ${(report.ms / 1000).toFixed(1)} s`];
  if (report.scan) {
    parts.push(`scan ${report.scan.files} files (${report.scan.imported} new, ${report.scan.updated} updated)`);
  }
  if (report.phase1) {
    parts.push(
      `phase 1 ${report.phase1.extracted} extracted of ${report.phase1.claimed}, ${report.phase1.failed} failed`,
    );
  }
  if (report.phase2) parts.push(`phase 2 ${report.phase2}`);
  if (report.hints) {
    const h = report.hints;
    parts.push(
      h.skipped
        ? `hints skipped: ${h.skipped}`
        : `hints ${h.indexed} indexed, ${h.failed} failed, ${h.pending} pending`,
    );
  }
  if (report.structural) {
    const st = report.structural;
    parts.push(
      st.skipped
        ? `structural skipped: ${st.skipped} (${st.waiting} waiting)`
        : `structural ${st.classified} classified, ${st.failed} failed, ${st.waiting} waiting`,
    );
  }
  for (const [name, cycle] of Object.entries(report.workers ?? {})) {
    parts.push(`${name} ${cycle.processed} done${cycle.failed > 0 ? `, ${cycle.failed} failed` : ""}`);
  }
  if (report.error) parts.push(`error: ${report.error.split("\n")[0]}`);
  return parts.join("; ");
}
