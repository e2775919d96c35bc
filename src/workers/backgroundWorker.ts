import { type Clock, systemClock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import { Scheduler, type Timers } from "./scheduler.js";

/** What one cycle of a worker did. */
export interface WorkerCycle {
  /** Units of work done (rows purged, chunks written, checkpoints flushed, sessions scored...). */
  processed: number;
  /** Units that failed (each is retried by the queue's backoff, or ends dead). */
  failed: number;
  /** Work still waiting after this cycle. */
  queueDepth: number;
  /** Why the cycle did nothing (disabled, frozen, not due, provider down); counted as a skipped cycle. */
  skipped?: string;
}

/** The stats every worker reports (seed 004), in `cairn status --json`, `GET /api/status` and MCP. */
export interface WorkerStats {
  /** A cycle is in progress in this process. */
  running: boolean;
  processed: number;
  failed: number;
  skippedCycles: number;
  lastCycleAt: number | null;
  queueDepth: number;
  /** The last cycle's error, if it threw. */
  lastError: string | null;
  /** Why the last skipped cycle did nothing. */
  lastSkip: string | null;
}

export const emptyWorkerStats = (): WorkerStats => ({
  running: false,
  processed: 0,
  failed: 0,
  skippedCycles: 0,
  lastCycleAt: null,
  queueDepth: 0,
  lastError: null,
  lastSkip: null,
});

/** Where a worker's stats outlive its process (the store's meta table), so `cairn status` sees them. */
export interface WorkerStatsSink {
  /** Adds one cycle's outcome to the stored totals. */
  record(name: string, cycle: WorkerCycle | { error: string }, at: number): void;
}

export interface WorkerSpec {
  /** Stable name: the key of its stats and of its config section (`workers.<name>`). */
  name: string;
  /** Pause between the end of one cycle and the start of the next, when scheduled. */
  intervalMs: number;
  /** Why the schedule must not start (disabled, frozen); undefined when it may. `tick()` still runs. */
  scheduleOff?: string;
  /** One cycle: leases its jobs from the queue, works, gives them back. */
  cycle: () => Promise<WorkerCycle>;
}

export interface BackgroundWorkerOptions {
  sink?: WorkerStatsSink;
  clock?: Clock;
  timers?: Timers;
  /** Called when a cycle throws; the loop goes on. */
  onError?: (name: string, error: unknown) => void;
}

/**
 * One background worker: a non-overlapping schedule around its cycle (src/workers/scheduler.ts) and
 * the stats of seed 004. `tick()` runs one cycle now (a `cairn run`, a test, an on-demand report),
 * joining the one in progress rather than starting a second; after `stop()` no cycle starts again.
 */
export class BackgroundWorker {
  private readonly scheduler: Scheduler;
  private readonly clock: Clock;
  private readonly local = emptyWorkerStats();
  private current: Promise<WorkerCycle> | undefined;
  private stopped = false;

  constructor(
    readonly spec: WorkerSpec,
    private readonly options: BackgroundWorkerOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.scheduler = new Scheduler({
      intervalMs: spec.intervalMs,
      task: async () => {
        await this.tick();
      },
      ...(options.timers ? { timers: options.timers } : {}),
    });
  }

  get name(): string {
    return this.spec.name;
  }

  /** Starts the schedule unless the spec says why it must not; true when it started. */
  start(): boolean {
    if (this.stopped || this.spec.scheduleOff !== undefined) return false;
    this.scheduler.start();
    return true;
  }

  /** Stops the schedule and waits for the cycle in progress (at most `waitMs`); true when idle. */
  async stop(waitMs = 30_000): Promise<boolean> {
    this.stopped = true;
    const idle = await this.scheduler.stop(waitMs);
    if (!this.current) return idle;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    });
    try {
      return await Promise.race([
        this.current.then(
          () => true,
          () => true,
        ),
        timedOut,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs one cycle now, or joins the one in progress. Never throws: a failure is counted and returned. */
  tick(): Promise<WorkerCycle> {
    if (this.stopped)
      return Promise.resolve({ processed: 0, failed: 0, queueDepth: this.local.queueDepth, skipped: "stopped" });
    this.current ??= this.runCycle().finally(() => {
      this.current = undefined;
    });
    return this.current;
  }

  /** This process's view: totals since it started, and whether a cycle runs now. */
  stats(): WorkerStats {
    return { ...this.local, running: this.current !== undefined };
  }

  private async runCycle(): Promise<WorkerCycle> {
    this.local.running = true;
    let cycle: WorkerCycle;
    try {
      cycle = await this.spec.cycle();
    } catch (error) {
      const message = errorMessage(error).split("\n")[0] ?? "error";
      this.local.failed++;
      this.local.lastError = message;
      this.local.lastCycleAt = this.clock();
      this.persist({ error: message });
      this.options.onError?.(this.spec.name, error);
      return { processed: 0, failed: 1, queueDepth: this.local.queueDepth, skipped: `error: ${message}` };
    } finally {
      this.local.running = false;
    }
    this.local.processed += cycle.processed;
    this.local.failed += cycle.failed;
    this.local.queueDepth = cycle.queueDepth;
    this.local.lastCycleAt = this.clock();
    if (cycle.skipped !== undefined) {
      this.local.skippedCycles++;
      this.local.lastSkip = cycle.skipped;
    } else {
      this.local.lastError = null;
    }
    this.persist(cycle);
    return cycle;
  }

  private persist(outcome: WorkerCycle | { error: string }): void {
    try {
      this.options.sink?.record(this.spec.name, outcome, this.clock());
    } catch (error) {
      // Stats are a report, not the work: a store that refuses the write must not fail the cycle.
      this.options.onError?.(this.spec.name, error);
    }
  }
}
