import type { CairnConfig } from "../config/schema.js";
import type { MemoryStore } from "../memory/memoryStore.js";
import type { LlmProvider } from "../providers/llm/types.js";
import type { Storage } from "../store/storage.js";
import type { Clock } from "../util/clock.js";
import { BackgroundWorker, type WorkerCycle, type WorkerSpec, type WorkerStats } from "./backgroundWorker.js";
import { checkpointWorker } from "./checkpoints/checkpointWorker.js";
import { continuityWorker } from "./continuityWorker.js";
import { documentsWorker } from "./documentsWorker.js";
import { maintenanceWorker } from "./maintenanceWorker.js";
import { retentionWorker } from "./retentionWorker.js";
import type { Timers } from "./scheduler.js";
import { WORKER_NAMES, type WorkerName } from "./workerNames.js";
import { storeStatsSink } from "./workerStatsStore.js";

/**
 * What every worker may use. `storage` is read at each cycle, never kept: a long-lived process reopens
 * the store when it is replaced (`cairn doctor --repair`), and a worker must follow.
 */
export interface WorkerHost {
  readonly storage: Storage;
  config: CairnConfig;
  clock: Clock;
  /** One line per notable event (a purge, a halted repair); the daemon's log, stderr for a run. */
  log: (line: string) => void;
  /** The configured embedding model, or null when no provider can be built. */
  embeddingModel: () => string | null;
  /** Writes missing and stale vectors for at most `budgetMs`; returns how many. */
  refreshEmbeddings: (budgetMs?: number) => Promise<number>;
  /** The memory root (where the session-start hook appends its injection log). */
  home: string;
  /** The small model role, or null without one (offline). */
  llm: () => Promise<LlmProvider | null>;
  /** The memory write path (redaction, FTS, vectors, scope), read at each cycle like `storage`; the documents worker needs it. */
  readonly memories?: MemoryStore;
}

/** Builds one worker's spec from the host; registered by name in `workerFactories`. */
export type WorkerFactory<H extends WorkerHost = WorkerHost> = (host: H) => WorkerSpec;

const factories: Record<WorkerName, WorkerFactory> = {
  retention: retentionWorker,
  maintenance: maintenanceWorker,
  checkpoints: checkpointWorker,
  continuity: continuityWorker,
  documents: documentsWorker,
};

/**
 * The background workers, in the order a `cairn run` ticks them (src/workers/workerNames.ts). Adding a
 * worker is its name there, its factory here, its config section in src/config/workersConfig.ts and its
 * section in docs/operations.md.
 */
export const workerFactories: ReadonlyArray<readonly [string, WorkerFactory]> = WORKER_NAMES.map(
  (name) => [name, factories[name]] as const,
);

/**
 * The workers of one process: the daemon starts their schedules, a `cairn run` ticks each once after
 * its pipeline cycle, and both report their stats (stored, so `cairn status` in another process sees
 * them).
 */
export class WorkerSet {
  readonly workers: BackgroundWorker[];

  constructor(
    host: WorkerHost,
    options: { timers?: Timers; factories?: ReadonlyArray<readonly [string, WorkerFactory]> } = {},
  ) {
    const sink = storeStatsSink(() => host.storage);
    this.workers = (options.factories ?? workerFactories).map(
      ([, factory]) =>
        new BackgroundWorker(factory(host), {
          sink,
          clock: host.clock,
          onError: (name, error) =>
            host.log(`${name} worker: ${error instanceof Error ? error.message : String(error)}`),
          ...(options.timers ? { timers: options.timers } : {}),
        }),
    );
  }

  /** Starts every schedule that may start; returns what each did (started, or why not). */
  start(): Array<{ name: string; started: boolean; reason?: string }> {
    return this.workers.map((worker) => {
      const started = worker.start();
      return { name: worker.name, started, ...(started ? {} : { reason: worker.spec.scheduleOff ?? "stopped" }) };
    });
  }

  /** Stops every schedule; true when no cycle is still running after `waitMs`. */
  async stop(waitMs = 30_000): Promise<boolean> {
    return (await Promise.all(this.workers.map((worker) => worker.stop(waitMs)))).every(Boolean);
  }

  /** One cycle of each worker, in order (a `cairn run`). A worker whose schedule is off is skipped, said why. */
  async tickAll(): Promise<Record<string, WorkerCycle>> {
    const out: Record<string, WorkerCycle> = {};
    for (const worker of this.workers) {
      out[worker.name] =
        worker.spec.scheduleOff !== undefined
          ? { processed: 0, failed: 0, queueDepth: 0, skipped: worker.spec.scheduleOff }
          : await worker.tick();
    }
    return out;
  }

  get(name: string): BackgroundWorker | undefined {
    return this.workers.find((worker) => worker.name === name);
  }

  /** This process's live stats by name (for `running`). */
  live(): Map<string, WorkerStats> {
    return new Map(this.workers.map((worker) => [worker.name, worker.stats()]));
  }
}

export type { WorkerSpec };
