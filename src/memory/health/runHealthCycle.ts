import type { Storage } from "../../store/storage.js";
import { errorMessage } from "../../util/errors.js";
import {
  type Diagnostics,
  type HealthScore,
  healthScore,
  type Recommendation,
  type RepairAction,
  readDiagnostics,
  recommend,
} from "./diagnostics.js";
import {
  blockedBecause,
  emptyLedger,
  healthy,
  type RepairLedger,
  type RepairLimits,
  recordRun,
} from "./repairLimiter.js";

/** Rows the index repair mends per run: one short transaction. */
const INDEX_REPAIR_BATCH = 2000;

/** Where the limiter's ledger and the last report live in the store's meta table. */
const LEDGER_KEY = "maintenance.ledger";
const REPORT_KEY = "maintenance.lastReport";

/** One repair: what it did, in units (jobs requeued, rows mended, vectors written, sweeps queued). */
export type Repair = () => Promise<number>;

/** What one action did in a cycle. */
export interface ActionOutcome {
  action: RepairAction;
  reason: string;
  /** `observed`: mode observe; `skipped`: cooldown, budget or halted (see `why`); `ran`; `failed`. */
  outcome: "observed" | "skipped" | "ran" | "failed";
  why?: string;
  units?: number;
  /** Health score after the action minus before it. */
  delta?: number;
}

export interface HealthReport {
  at: number;
  mode: "observe" | "execute";
  diagnostics: Diagnostics;
  health: HealthScore;
  /** The score after the repairs of this cycle (execute mode, when one ran). */
  healthAfter?: HealthScore;
  recommendations: Recommendation[];
  actions: ActionOutcome[];
  /** Actions halted until health is good again. */
  halted: RepairAction[];
}

/**
 * One maintenance cycle (seed 004): diagnostics and a composite health score, the recommendations
 * they call for, and in `execute` mode each repair that its cooldown, hourly budget and halt allow,
 * with the score read again after each so that an action which does not help is halted after
 * `haltAfter` runs in a row. The ledger and the report are stored for `cairn doctor` and the next
 * process.
 */
export async function runHealthCycle(options: {
  storage: Storage;
  now: () => number;
  mode: "observe" | "execute";
  limits: RepairLimits;
  embeddingModel: string | null;
  repairs: Record<RepairAction, Repair>;
}): Promise<HealthReport> {
  const { storage, now, limits } = options;
  const read = () => readDiagnostics(storage, options.embeddingModel);
  const diagnostics = read();
  const health = healthScore(diagnostics);
  const recommendations = recommend(diagnostics);
  let ledger = storage.meta.get<RepairLedger>(LEDGER_KEY) ?? emptyLedger();
  const report: HealthReport = {
    at: now(),
    mode: options.mode,
    diagnostics,
    health,
    recommendations,
    actions: [],
    halted: [],
  };
  if (recommendations.length === 0) {
    ledger = healthy(ledger);
  } else if (options.mode === "observe") {
    report.actions = recommendations.map((r) => ({ ...r, outcome: "observed" }));
  } else {
    let before = health;
    for (const r of recommendations) {
      const blocked = blockedBecause(ledger, r.action, now(), limits);
      if (blocked !== undefined) {
        report.actions.push({ ...r, outcome: "skipped", why: blocked });
        continue;
      }
      const startedAt = now();
      let units = 0;
      let failure: string | undefined;
      try {
        units = await options.repairs[r.action]();
      } catch (error) {
        failure = errorMessage(error).split("\n")[0];
      }
      const after = healthScore(read());
      const delta = Math.round((after.score - before.score) * 1000) / 1000;
      ledger = recordRun(ledger, r.action, startedAt, delta > 0, limits);
      report.actions.push({
        ...r,
        outcome: failure === undefined ? "ran" : "failed",
        ...(failure === undefined ? {} : { why: failure }),
        units,
        delta,
      });
      before = after;
      report.healthAfter = after;
    }
  }
  report.halted = Object.keys(ledger.halted) as RepairAction[];
  storage.meta.set(LEDGER_KEY, ledger);
  storage.meta.set(REPORT_KEY, report);
  return report;
}

/** The last stored report, for `cairn doctor` when no cycle runs now. */
export function lastHealthReport(storage: Storage): HealthReport | undefined {
  return storage.meta.get<HealthReport>(REPORT_KEY);
}

/** A dead job is requeued by maintenance once, and only this long after it died. */
const REQUEUE_AFTER_MS = 3_600_000;
/** The ids of jobs maintenance requeued, kept so that none is requeued twice (the newest this many). */
const REQUEUED_KEY = "maintenance.requeued";
const REQUEUED_KEPT = 5000;

/**
 * Requeues the dead jobs that died over an hour ago and were never requeued by maintenance: a job that
 * died of a passing fault (a provider down for a while) gets one more chance; one that dies again stays
 * dead for the user to look at (`cairn status`) and retry (`cairn run --retry-dead`), so a broken
 * provider is never called again and again on its own.
 */
function requeueDeadOnce(storage: Storage, now: number): number {
  const requeued = new Set(storage.meta.get<number[]>(REQUEUED_KEY) ?? []);
  const due = storage.jobs
    .list({ status: "dead", limit: 1000 })
    .filter((job) => !requeued.has(job.id) && (job.finishedAt ?? job.updatedAt) <= now - REQUEUE_AFTER_MS)
    .map((job) => job.id);
  const count = storage.jobs.retryDeadIds(due);
  if (due.length > 0) storage.meta.set(REQUEUED_KEY, [...requeued, ...due].slice(-REQUEUED_KEPT));
  return count;
}

/** The repairs that need only the store; the caller adds the ones that need a provider or another worker. */
export function storeRepairs(
  storage: Storage,
  now: () => number,
): Pick<Record<RepairAction, Repair>, "requeueDeadJobs" | "releaseStaleLeases" | "rebuildFts"> {
  return {
    requeueDeadJobs: async () => requeueDeadOnce(storage, now()),
    releaseStaleLeases: async () => storage.jobs.releaseExpired(),
    rebuildFts: async () => {
      const { removed, added } = storage.search.repairIndex(INDEX_REPAIR_BATCH);
      return removed + added;
    },
  };
}
