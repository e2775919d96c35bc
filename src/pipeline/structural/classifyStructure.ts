import { STRUCTURAL_META } from "../../store/contracts/aspects.js";
import { STRUCTURAL_KIND } from "../../store/queue/jobKinds.js";
import { startLeaseHeartbeat } from "../../store/queue/leaseHeartbeat.js";
import { withWriteTx } from "../../store/tx.js";
import { DAY_MS } from "../../util/clock.js";
import { classifyEntities } from "./classifyEntities.js";
import { ENTITIES_PER_PASS } from "./groupForCalls.js";
import type { StructuralDeps } from "./structuralDeps.js";

/** The reason a disabled pass gives; front ends print nothing for it. */
export const STRUCTURAL_OFF = "pipeline.structural.enabled is false";

/** Entities looked at for queueing per pass (an enqueue of an unchanged entity is a no-op). */
const ENQUEUE_SCAN = 5_000;
/** An entity whose answers stay unusable after this many tries is left unclassified (job dead). */
const MAX_ATTEMPTS = 3;

export interface StructuralReport {
  outcome: "completed" | "skipped";
  /** Why nothing was classified, e.g. "no model configured". */
  reason?: string;
  /** Entities newly queued (or reopened by new facts). */
  enqueued: number;
  /** Entities whose facts were classified in this pass, and how many facts in all. */
  entities: number;
  classified: number;
  aspectsCreated: number;
  typesInferred: number;
  /** Model calls made: one per 20 entities (at most `classifyBatchSize` facts of each) per round. */
  calls: number;
  failed: number;
  /** Entities a batched answer left out, asked again alone (failed, and counted there, if left out again). */
  leftOut: number;
  /** Facts of live memories still waiting for classification. */
  waiting: number;
  /** Aspects lowered by decay in this pass. */
  decayed: number;
  errors: { entityId: number; error: string }[];
}

/**
 * The structural step of the cycle (seed 004 "Structural Classification"): queues one job per entity
 * with waiting facts, classifies them up to 20 entities per model call (so the calls grow with the
 * sessions that named the entities, not with the entities), then decays stale aspects. Offline, disabled or frozen, nothing is classified and the report says
 * why and how many facts wait; the inline linker's entities and decision auto-protection do not need
 * this step.
 */
export async function classifyStructure(deps: StructuralDeps): Promise<StructuralReport> {
  const report: StructuralReport = {
    outcome: "completed",
    enqueued: 0,
    entities: 0,
    classified: 0,
    aspectsCreated: 0,
    typesInferred: 0,
    calls: 0,
    failed: 0,
    leftOut: 0,
    waiting: 0,
    decayed: 0,
    errors: [],
  };
  const finish = (reason?: string): StructuralReport => {
    const done: StructuralReport = {
      ...report,
      ...(reason === undefined ? {} : { outcome: "skipped" as const, reason }),
      waiting: deps.aspects.counts().waiting,
    };
    recordRun(deps, done);
    return done;
  };
  if (!deps.config.enabled) return finish(STRUCTURAL_OFF);
  if (deps.frozen) return finish("pipeline.mutationsFrozen is true");
  report.decayed = decayStale(deps);
  if (!deps.llm) return finish("no model configured");
  report.enqueued = enqueueWaiting(deps);
  const leases = deps.jobs.claim({ kind: STRUCTURAL_KIND, limit: ENTITIES_PER_PASS });
  if (leases.length === 0) return finish();
  // Asked only when there is work, so an idle cycle costs the provider nothing.
  if (!(await deps.llm.available())) {
    for (const lease of leases) deps.jobs.release(lease);
    return finish(`${deps.llm.name} is unavailable`);
  }
  const heartbeat = startLeaseHeartbeat({ jobs: deps.jobs, leases, leaseMs: deps.leaseMs });
  try {
    const done = await classifyEntities(deps, leases, {
      // Marked when an entity's first call begins: only the entities of calls in flight spend an
      // attempt if the process dies, not all it claimed.
      start: (started) => deps.jobs.start(...started),
      done: (lease) => heartbeat.done(lease),
    });
    report.calls = done.calls;
    report.classified = done.classified;
    report.aspectsCreated = done.aspectsCreated;
    report.entities = done.entities;
    report.typesInferred = done.typesInferred;
    report.leftOut = done.leftOut;
    report.failed = done.errors.length;
    report.errors = done.errors;
  } finally {
    heartbeat.stop();
  }
  return finish();
}

/** One job per entity with waiting facts; a newer mention reopens the entity's finished job. */
function enqueueWaiting(deps: StructuralDeps): number {
  const awaiting = deps.aspects.entitiesAwaiting(ENQUEUE_SCAN);
  let queued = 0;
  withWriteTx(deps.db, () => {
    for (const entity of awaiting) {
      const { created, reopened } = deps.jobs.enqueue({
        kind: STRUCTURAL_KIND,
        key: String(entity.entityId),
        watermark: entity.newestMention,
        maxAttempts: MAX_ATTEMPTS,
      });
      if (created || reopened) queued++;
    }
  });
  return queued;
}

/** Aspect weights drift back down when recall stops confirming them (seed 004 "Aspect Feedback"). */
function decayStale(deps: StructuralDeps): number {
  const { staleDays, decayRate, minWeight } = deps.config;
  const now = deps.clock();
  return withWriteTx(deps.db, () => {
    const aspects = deps.aspects.decay({ staleMs: staleDays * DAY_MS, rate: decayRate, minWeight }, now);
    if (aspects > 0) deps.meta.set(STRUCTURAL_META.lastDecay, { at: now, aspects });
    return aspects;
  });
}

function recordRun(deps: StructuralDeps, report: StructuralReport): void {
  deps.meta.set(STRUCTURAL_META.lastRun, {
    at: deps.clock(),
    outcome: report.outcome,
    ...(report.reason === undefined ? {} : { reason: report.reason }),
    classified: report.classified,
    waiting: report.waiting,
  });
}
