import type { CairnConfig } from "../config/schema.js";
import { STRUCTURAL_META, type StructuralCounts } from "../store/contracts/aspects.js";
import { eligibilityWindow } from "../store/eligibilityWindow.js";
import { RETRY_DEAD_COMMAND } from "../store/queue/describeDeadJobs.js";
import { PHASE1_KIND } from "../store/queue/jobKinds.js";
import type { ForeignLeases, JobStatus } from "../store/queue/types.js";
import type { PendingBreakdown } from "../store/repositories/eligibilityRepository.js";
import type { Phase2LastRun } from "../store/repositories/phase2State.js";
import type { Storage } from "../store/storage.js";
import { extractedSinceLastRun, newestInput } from "./phase2/runPhase2.js";

export interface PipelineStatus {
  home: string;
  memoriesEnabled: boolean;
  sessions: number;
  items: number;
  stage1Outputs: number;
  /** Facts of those outputs under pipeline.minFactConfidenceForWrite (`threshold`): not stored as memories. */
  factsBelowThreshold: { count: number; threshold: number };
  /**
   * Live memories, and how many wait for a vector of the configured embedding (missing, or another
   * model's); when the embedding provider cannot be built, why, and no count.
   */
  memories: { live: number; embeddingModel: string | null; waitingForVector: number | null; embeddingProblem?: string };
  /** Review flags waiting for a person (`cairn memory review`), in every scope. */
  reviews: { open: number };
  /** Sessions phase 1 would take now, and why the others wait. */
  pending: PendingBreakdown;
  jobs: Record<string, Record<string, number>>;
  failedJobs: Array<{ kind: string; key: string; status: JobStatus; attempts: number; error: string | null }>;
  /** Jobs that failed permanently, by kind, and the command that queues them again (null when none). */
  dead: { jobs: number; byKind: Record<string, number>; retry: string | null };
  /** Phase-1 leases other processes hold. */
  leases: ForeignLeases;
  phase2: {
    watermark: number | null;
    newestInput: number;
    /** New stage-1 input since the last successful phase 2. */
    dirty: boolean;
    last: Phase2LastRun | null;
  };
  /** Structural classification: counts, and what its last pass, feedback and decay did. */
  structural: StructuralCounts & {
    enabled: boolean;
    lastRun: { at: number; outcome: string; reason?: string; classified: number; waiting: number } | null;
    lastFeedback: { at: number; aspects: number; confirmations: number } | null;
    lastDecay: { at: number; aspects: number } | null;
  };
}

/** Failed and dead jobs listed of each, newest first. */
const FAILED_LIST = 20;

/** What the pipeline is doing and whether phase 2 has new input (dirty) since its last success. */
export function pipelineStatus(options: {
  storage: Storage;
  config: CairnConfig;
  home: string;
  now: number;
  /** The configured embedding provider's model id, or why the provider cannot be built. */
  embedding: { model: string } | { problem: string };
}): PipelineStatus {
  const { storage, config, now } = options;
  const phase2 = storage.phase2;
  const watermark = phase2.watermark();
  const newest = newestInput(storage);
  const jobs = storage.jobs.stats();
  return {
    home: options.home,
    memoriesEnabled: config.memories.enabled,
    sessions: storage.sessions.count(),
    items: storage.items.count(),
    stage1Outputs: storage.stage1.count(),
    factsBelowThreshold: {
      count: storage.stage1.factsBelow(config.pipeline.minFactConfidenceForWrite),
      threshold: config.pipeline.minFactConfidenceForWrite,
    },
    memories: {
      live: storage.memories.counts().live,
      ...("model" in options.embedding
        ? {
            embeddingModel: options.embedding.model,
            waitingForVector: storage.embeddings.countStale(options.embedding.model),
          }
        : { embeddingModel: null, waitingForVector: null, embeddingProblem: options.embedding.problem }),
    },
    reviews: { open: storage.reviews.countOpen() },
    pending: storage.eligibility.breakdown(eligibilityWindow(config, now)),
    jobs,
    dead: deadJobs(jobs),
    failedJobs: [
      ...storage.jobs.list({ status: "failed", limit: FAILED_LIST }),
      ...storage.jobs.list({ status: "dead", limit: FAILED_LIST }),
    ].map((job) => ({
      kind: job.kind,
      key: job.key,
      status: job.status,
      attempts: job.attempts,
      error: job.lastError,
    })),
    leases: storage.jobs.foreignLeases(PHASE1_KIND),
    phase2: {
      watermark,
      newestInput: newest,
      dirty: newest > (watermark ?? 0) || extractedSinceLastRun(storage),
      last: phase2.lastRun(),
    },
    structural: {
      enabled: config.pipeline.structural.enabled,
      ...storage.aspects.counts(),
      lastRun: storage.meta.get(STRUCTURAL_META.lastRun) ?? null,
      lastFeedback: storage.meta.get(STRUCTURAL_META.lastFeedback) ?? null,
      lastDecay: storage.meta.get(STRUCTURAL_META.lastDecay) ?? null,
    },
  };
}

function deadJobs(stats: Record<string, Record<string, number>>): PipelineStatus["dead"] {
  const byKind: Record<string, number> = {};
  for (const [kind, counts] of Object.entries(stats)) if (counts.dead) byKind[kind] = counts.dead;
  const jobs = Object.values(byKind).reduce((sum, n) => sum + n, 0);
  return { jobs, byKind, retry: jobs > 0 ? RETRY_DEAD_COMMAND : null };
}
