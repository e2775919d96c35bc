import type { Storage } from "../../store/storage.js";

/** What the maintenance worker measures of the store (seed 004's DiagnosticsReport). */
export interface Diagnostics {
  queue: {
    jobs: number;
    dead: number;
    /** dead / jobs, 0 when there are none. */
    deadRate: number;
    /** Running jobs whose lease ran out: their holder stopped without giving them back. */
    staleLeases: number;
  };
  index: {
    liveMemories: number;
    ftsRows: number;
  };
  vectors: {
    /** The configured model, or null when no provider can be built (then no vector check). */
    model: string | null;
    /** Live memories without a vector of that model. */
    missing: number;
  };
  storage: {
    memories: number;
    tombstones: number;
    /** tombstones / memories, 0 when there are none. */
    tombstoneRatio: number;
  };
}

/** Reads the diagnostics: a handful of counts, each an index lookup or a count over one table. */
export function readDiagnostics(storage: Storage, embeddingModel: string | null): Diagnostics {
  const jobRow = storage.jobs.health();
  const counts = storage.memories.counts();
  const ftsRows = storage.search.indexedRows();
  const total = counts.live + counts.deleted;
  return {
    queue: {
      jobs: jobRow.jobs,
      dead: jobRow.dead,
      deadRate: jobRow.jobs === 0 ? 0 : jobRow.dead / jobRow.jobs,
      staleLeases: jobRow.stale,
    },
    index: { liveMemories: counts.live, ftsRows },
    vectors: {
      model: embeddingModel,
      missing: embeddingModel === null ? 0 : storage.embeddings.countStale(embeddingModel),
    },
    storage: {
      memories: total,
      tombstones: counts.deleted,
      tombstoneRatio: total === 0 ? 0 : counts.deleted / total,
    },
  };
}

/** Thresholds of seed 004: above them an action is recommended. */
export const DEAD_RATE_LIMIT = 0.01;
export const TOMBSTONE_RATIO_LIMIT = 0.3;

/** Each part's score in [0, 1] and their weighted mean, the composite health score. */
export interface HealthScore {
  score: number;
  parts: { queue: number; index: number; vectors: number; storage: number };
}

const WEIGHTS = { queue: 0.3, index: 0.3, vectors: 0.2, storage: 0.2 } as const;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * The composite score: 1 is a store with nothing to repair. Each part falls linearly with how far
 * it is from healthy: the queue with its dead rate (0 at 10 %) and a penalty for stale leases, the
 * index and the vectors with the share of live memories they miss or over-count, storage once
 * tombstones pass the retention trigger (0 when every row is one).
 */
export function healthScore(d: Diagnostics): HealthScore {
  const live = Math.max(1, d.index.liveMemories);
  const queue = clamp01(1 - d.queue.deadRate / 0.1) * (d.queue.staleLeases > 0 ? 0.8 : 1);
  const index = clamp01(1 - Math.abs(d.index.ftsRows - d.index.liveMemories) / live);
  const vectors = clamp01(1 - d.vectors.missing / live);
  const over = d.storage.tombstoneRatio - TOMBSTONE_RATIO_LIMIT;
  const storage = over <= 0 ? 1 : clamp01(1 - over / (1 - TOMBSTONE_RATIO_LIMIT));
  const parts = { queue, index, vectors, storage };
  const score =
    parts.queue * WEIGHTS.queue +
    parts.index * WEIGHTS.index +
    parts.vectors * WEIGHTS.vectors +
    parts.storage * WEIGHTS.storage;
  return { score: Math.round(score * 1000) / 1000, parts };
}

/** The repair actions the maintenance worker knows. */
export const REPAIR_ACTIONS = [
  "requeueDeadJobs",
  "releaseStaleLeases",
  "rebuildFts",
  "reembed",
  "triggerRetention",
] as const;
export type RepairAction = (typeof REPAIR_ACTIONS)[number];

export interface Recommendation {
  action: RepairAction;
  /** Why, in the user's terms. */
  reason: string;
}

/** What to repair (seed 004's buildRecommendations, plus the vectors cairn also checks). */
export function recommend(d: Diagnostics): Recommendation[] {
  const out: Recommendation[] = [];
  if (d.queue.deadRate > DEAD_RATE_LIMIT) {
    out.push({
      action: "requeueDeadJobs",
      reason: `${d.queue.dead} of ${d.queue.jobs} jobs are dead (${pct(d.queue.deadRate)}, over ${pct(DEAD_RATE_LIMIT)})`,
    });
  }
  if (d.queue.staleLeases > 0) {
    out.push({ action: "releaseStaleLeases", reason: `${d.queue.staleLeases} jobs hold a lease that ran out` });
  }
  if (d.index.ftsRows !== d.index.liveMemories) {
    out.push({
      action: "rebuildFts",
      reason: `the search index has ${d.index.ftsRows} rows for ${d.index.liveMemories} live memories`,
    });
  }
  if (d.vectors.missing > 0) {
    out.push({ action: "reembed", reason: `${d.vectors.missing} live memories have no vector of ${d.vectors.model}` });
  }
  if (d.storage.tombstoneRatio > TOMBSTONE_RATIO_LIMIT) {
    out.push({
      action: "triggerRetention",
      reason: `${pct(d.storage.tombstoneRatio)} of memory rows are tombstones (over ${pct(TOMBSTONE_RATIO_LIMIT)})`,
    });
  }
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)} %`;
