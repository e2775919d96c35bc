import type { FileReport, ScanReport } from "../collection/scanner.js";
import type { ReviseJobsReport } from "../memory/lifecycle/runReviseJobs.js";
import type { MaintenanceReport } from "../memory/runMaintenanceJobs.js";
import type { SourceAgent } from "../sources/registry.js";
import type { OnProgress } from "../util/progress.js";
import type { HintsReport } from "./hints/generateHints.js";
import type { Phase1Options, Phase1Report } from "./phase1/runPhase1.js";
import type { Phase2Report } from "./phase2/runPhase2.js";
import type { StructuralReport } from "./structural/classifyStructure.js";

export interface ScanOptions {
  /** Roots to scan instead of the configured ones, per agent. */
  overrides?: Partial<Record<SourceAgent, string[]>>;
  only?: SourceAgent[];
  onFile?: (report: FileReport, done: number) => void;
  /** Files found, then files read. */
  onProgress?: OnProgress;
}

/** What a cycle drives: the library facade (`Cairn`) is one. */
export interface CycleHost {
  scan(options?: ScanOptions): Promise<ScanReport>;
  extract(options?: Phase1Options): Promise<Phase1Report>;
  /** Derives the decisions of memories written raw (supersession), from their pending revise jobs. */
  revise(): Promise<ReviseJobsReport>;
  consolidate(options?: { force?: boolean }): Promise<Phase2Report>;
  /** `onProgress`: memories embedded of those waiting. */
  refreshEmbeddings(budgetMs?: number, onProgress?: OnProgress): Promise<number>;
  /** Store upkeep that migrations queue (e.g. the concept backfill). */
  maintain(): Promise<MaintenanceReport>;
  generateHints(): Promise<HintsReport>;
  /** Files waiting facts under their entities' aspects and decays stale aspects. */
  classifyStructure(): Promise<StructuralReport>;
  /** Hands back every lease this process holds; returns how many. */
  releaseLeases(): number;
  /** One cycle of each background worker (retention, maintenance, ...), by worker name. */
  runWorkers?(): Promise<Record<string, WorkerCycleReport>>;
}

/** What one cycle of a background worker did (src/workers/backgroundWorker.ts). */
export interface WorkerCycleReport {
  processed: number;
  failed: number;
  queueDepth: number;
  skipped?: string;
}

/** What each step of a cycle reports, by step name. */
export interface CycleReports {
  scan: ScanReport;
  extract: Phase1Report;
  revise: ReviseJobsReport;
  consolidate: Phase2Report;
  /** Vectors written. */
  embeddings: number;
  maintenance: MaintenanceReport;
  hints: HintsReport;
  structural: StructuralReport;
  workers: Record<string, WorkerCycleReport>;
}

export type CycleStepName = keyof CycleReports;

/** One finished step and its report. */
export type StepDone = { [K in CycleStepName]: { name: K; report: CycleReports[K] } }[CycleStepName];

export interface CycleOptions {
  scan?: ScanOptions;
  extract?: Phase1Options;
  /** Consolidate every workspace even if nothing changed. */
  force?: boolean;
  /** Leave the maintenance step out, saying why (a scheduled cycle under pipeline.autonomousFrozen). */
  skipMaintenance?: string;
  /** Called after each step, so a caller keeps what finished before a later step failed. */
  onStepDone?: (done: StepDone) => void;
  /** Hears the long steps' counts (files found and read, sessions extracted, memories embedded). */
  onProgress?: OnProgress;
}

interface CycleStep<K extends CycleStepName> {
  name: K;
  run: (host: CycleHost, options: CycleOptions) => Promise<CycleReports[K]>;
}

const step = <K extends CycleStepName>(name: K, run: CycleStep<K>["run"]): CycleStep<K> => ({ name, run });

/**
 * The pipeline cycle, in order: collection, the store's upkeep that migrations queue (data mended
 * before anything is derived from it, so one run finishes an upgrade), phase 1 (with its facts), the
 * revision of memories written raw (supersession; before phase 2, so consolidation never sees a
 * replaced memory as current), phase 2, the vectors the provider could not compute at write time,
 * then prospective hints. `cairn run`, the daemon's
 * scheduler and the background run all go through this list.
 *
 * Hints always run as a step and decide themselves whether to skip (`recall.hints.enabled` off, no
 * model, provider down), returning the reason: the rule lives in the hints pass alone, not again in
 * each caller, and a failing pass hands back its leases like every other step. Whether to print a
 * pass skipped as disabled is up to each front end.
 */
export const CYCLE_STEPS = [
  step("scan", (host, options) =>
    host.scan({ ...options.scan, ...(options.onProgress ? { onProgress: options.onProgress } : {}) }),
  ),
  step("maintenance", (host, options) =>
    options.skipMaintenance === undefined
      ? host.maintain()
      : Promise.resolve({ done: [], warnings: [], skipped: options.skipMaintenance }),
  ),
  step("extract", (host, options) =>
    host.extract({ ...options.extract, ...(options.onProgress ? { onProgress: options.onProgress } : {}) }),
  ),
  step("revise", (host) => host.revise()),
  step("consolidate", (host, options) => host.consolidate({ force: options.force ?? false })),
  step("embeddings", (host, options) => host.refreshEmbeddings(undefined, options.onProgress)),
  step("hints", (host) => host.generateHints()),
  step("structural", (host) => host.classifyStructure()),
  // Last: the workers look after what the steps above wrote (retention, health, documents, checkpoints).
  step("workers", (host) => host.runWorkers?.() ?? Promise.resolve({})),
] as const;

/**
 * Runs every step of the cycle in order. A step that throws ends the cycle; every lease the process
 * still holds is handed back first, so its jobs are pending again at once instead of when the lease
 * expires.
 */
export async function runCycle(host: CycleHost, options: CycleOptions = {}): Promise<CycleReports> {
  const reports: Partial<Record<CycleStepName, unknown>> = {};
  try {
    for (const { name, run } of CYCLE_STEPS) {
      const report = await run(host, options);
      reports[name] = report;
      options.onStepDone?.({ name, report } as StepDone);
    }
  } catch (error) {
    host.releaseLeases();
    throw error;
  }
  return reports as CycleReports;
}
