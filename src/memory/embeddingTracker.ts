import type { Database } from "better-sqlite3";
import type { RecallConfig } from "../config/recallConfig.js";
import type { EmbeddingProvider } from "../providers/embeddings/types.js";
import type { EmbeddingRepo } from "../store/contracts/embeddings.js";
import type { MemoryRepo } from "../store/contracts/memories.js";
import type { VectorIndexRepo } from "../store/contracts/vectors.js";
import { withWriteTx } from "../store/tx.js";
import { type Clock, systemClock } from "../util/clock.js";
import type { OnProgress } from "../util/progress.js";

/** Wall time one drain may spend; the rest waits for the next pipeline cycle or poll. */
const DRAIN_BUDGET_MS = 10_000;

export interface EmbeddingTrackerStats {
  running: boolean;
  processed: number;
  failed: number;
  skippedCycles: number;
  lastCycleAt: number | null;
  queueDepth: number;
}

export interface EmbeddingTrackerOptions {
  db: Database;
  memories: MemoryRepo;
  embeddings: EmbeddingRepo;
  vectors: VectorIndexRepo;
  provider: EmbeddingProvider;
  config: RecallConfig["embeddingTracker"];
  clock?: Clock;
}

/**
 * Refreshes missing and stale vectors (a memory without a vector, or with one of another model) in
 * small batches: embed one at a time outside any transaction, then one short write. A
 * cycle is skipped while the provider is unavailable, so an outage costs nothing but time, and an
 * idle cycle (nothing stale) is one index lookup, cheap enough to poll every few seconds.
 */
export class EmbeddingTracker {
  private timer: NodeJS.Timeout | undefined;
  private readonly stats: EmbeddingTrackerStats = {
    running: false,
    processed: 0,
    failed: 0,
    skippedCycles: 0,
    lastCycleAt: null,
    queueDepth: 0,
  };

  private draining: Promise<number> | undefined;

  constructor(private readonly options: EmbeddingTrackerOptions) {}

  /**
   * Runs cycles until nothing is left or `budgetMs` of wall time is spent (a cycle is never cut
   * short); returns how many vectors were written. Bounded by time rather than by a count of
   * cycles: after a model change every memory is stale, and a local embedding (hashed, word
   * vectors: tens of microseconds a memory) re-embeds thousands within a budget that a remote
   * provider spends on a few hundred. A call made while another is running joins it: `cairn serve`
   * drains from its pipeline cycle and from its own poll, and two drains would embed the same
   * memories twice.
   */
  drain(budgetMs = DRAIN_BUDGET_MS, onProgress?: OnProgress): Promise<number> {
    this.draining ??= this.drainCycles(budgetMs, onProgress).finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  /** `onProgress` hears the memories embedded of those waiting when the drain began, after each cycle. */
  private async drainCycles(budgetMs: number, onProgress: OnProgress | undefined): Promise<number> {
    const started = performance.now();
    const waiting = onProgress ? this.options.embeddings.countStale(this.options.provider.model) : 0;
    const progress = (done: number) =>
      onProgress?.({ step: "embedding", unit: "memories", done, total: Math.max(waiting, done) });
    if (waiting > 0) progress(0);
    let total = 0;
    for (;;) {
      const written = await this.runCycle();
      if (written === 0) break;
      total += written;
      progress(total);
      if (performance.now() - started >= budgetMs) break;
    }
    return total;
  }

  /** One cycle; returns how many vectors were written. */
  async runCycle(): Promise<number> {
    const { provider, embeddings, config } = this.options;
    this.stats.lastCycleAt = (this.options.clock ?? systemClock)();
    // Nothing to do costs one index lookup, and no call to the provider (which may be remote).
    const stale = embeddings.findStale(provider.model, config.batchSize);
    if (stale.length === 0) {
      this.stats.queueDepth = 0;
      return 0;
    }
    if (!(await provider.available())) {
      this.stats.skippedCycles++;
      return 0;
    }
    const done: { id: number; scope: string; contentHash: string; vector: Float32Array }[] = [];
    for (const row of stale) {
      try {
        const [vector] = await provider.embed([row.content]);
        if (vector) done.push({ ...row, vector });
      } catch {
        this.stats.failed++;
      }
    }
    if (done.length > 0) {
      const now = (this.options.clock ?? systemClock)();
      withWriteTx(this.options.db, () => {
        for (const d of done) {
          embeddings.upsert(d.contentHash, provider.model, d.vector, now);
          this.options.vectors.upsert(d.id, d.scope, d.vector);
          this.options.memories.setEmbeddingModel(d.id, provider.model);
        }
      });
    }
    this.stats.processed += done.length;
    this.stats.queueDepth = embeddings.countStale(provider.model);
    return done.length;
  }

  /** Starts the setTimeout chain (the next cycle is scheduled only after this one ends). */
  start(): void {
    if (this.stats.running || !this.options.config.enabled) return;
    this.stats.running = true;
    const tick = async () => {
      try {
        await this.runCycle();
      } catch {
        this.stats.failed++;
      }
      if (this.stats.running) this.timer = setTimeout(tick, this.options.config.pollMs);
    };
    this.timer = setTimeout(tick, 0);
  }

  stop(): void {
    this.stats.running = false;
    clearTimeout(this.timer);
  }

  getStats(): EmbeddingTrackerStats {
    return { ...this.stats };
  }
}
