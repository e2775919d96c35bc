import type { Cairn } from "../cairn.js";
import type { HintsReport } from "../pipeline/hints/generateHints.js";
import { PHASE2_KIND } from "../pipeline/phase2/runPhase2.js";
import { PHASE1_KIND } from "../store/repositories/eligibilityRepository.js";
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
  error?: string;
}

/** True while some process holds a live phase-1 or phase-2 lease (expired ones count as `stale`, not running). */
export function pipelineBusy(cairn: Cairn): boolean {
  const stats = cairn.storage.jobs.stats();
  return (stats[PHASE1_KIND]?.running ?? 0) > 0 || (stats[PHASE2_KIND]?.running ?? 0) > 0;
}

/**
 * One pipeline cycle as `cairn run` does it: collection, phase 1, phase 2. Runs under the machine-wide
 * run lock; `skipIfBusy` also skips when another process (a `cairn run` in a terminal) holds a phase
 * lease, so a background run never scans just to find the phases taken.
 */
export async function runPipelineCycle(
  cairn: Cairn,
  options: { skipIfBusy?: boolean; now?: () => number } = {},
): Promise<CycleReport> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const report: CycleReport = { startedAt, ms: 0, outcome: "completed" };
  const lock = acquireRunLock(cairn.paths.home, startedAt);
  if (!lock) return { ...report, outcome: "skipped", reason: "another background run holds the lock" };
  try {
    if (options.skipIfBusy && pipelineBusy(cairn)) {
      return { ...report, outcome: "skipped", reason: "a run is in progress in another process" };
    }
    const scan = await cairn.scan();
    report.scan = { files: scan.files.length, imported: scan.totals.imported, updated: scan.totals.updated };
    const extract = await cairn.extract();
    const count = (outcome: string) => extract.jobs.filter((job) => job.outcome === outcome).length;
    report.phase1 = {
      claimed: extract.jobs.length,
      extracted: count("succeeded"),
      failed: count("failed") + count("dead"),
    };
    const consolidate = await cairn.consolidate();
    report.phase2 = consolidate.outcome;
    await cairn.refreshEmbeddings();
    if (cairn.config.recall.hints.enabled) report.hints = summarizeHints(await cairn.generateHints());
    if (consolidate.error) report.error = consolidate.error;
  } catch (error) {
    report.outcome = "failed";
    report.error = errorMessage(error);
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
  if (report.error) parts.push(`error: ${report.error.split("\n")[0]}`);
  return parts.join("; ");
}
