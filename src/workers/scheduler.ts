/** Timers the scheduler uses; injected so tests can drive time without waiting. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface SchedulerOptions {
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** Delay before the first run after start(). */
  initialDelayMs?: number;
  task: () => Promise<void>;
  /** Called when the task throws; the loop goes on. */
  onError?: (error: unknown) => void;
  timers?: Timers;
}

export interface TriggerResult {
  /** A run started now. */
  started: boolean;
  /** A run was in progress; another one follows it at once. */
  queued: boolean;
}

/**
 * A setTimeout loop that never overlaps itself: the next run is scheduled only after the current one
 * ends, so a slow run stretches the cycle instead of stacking runs. After stop() no run starts again.
 */
export class Scheduler {
  private timer: unknown;
  private current: Promise<void> | undefined;
  private started = false;
  private stopped = false;
  private rerun = false;
  private readonly timers: Timers;

  constructor(private readonly options: SchedulerOptions) {
    this.timers = options.timers ?? realTimers;
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule(this.options.initialDelayMs ?? 0);
  }

  /** Runs now unless a run is in progress, in which case one more run follows it. */
  trigger(): TriggerResult {
    if (this.stopped) return { started: false, queued: false };
    if (this.current) {
      this.rerun = true;
      return { started: false, queued: true };
    }
    this.clearTimer();
    this.runNow();
    return { started: true, queued: false };
  }

  /**
   * Stops claiming new work and waits for the run in progress, at most `waitMs`. Resolves true when
   * nothing is running any more, false when the wait timed out (the run's leases then expire).
   */
  async stop(waitMs = 30_000): Promise<boolean> {
    this.stopped = true;
    this.rerun = false;
    this.clearTimer();
    const current = this.current;
    if (!current) return true;
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timeout = setTimeout(() => resolve(false), waitMs);
    });
    try {
      return await Promise.race([current.then(() => true), timedOut]);
    } finally {
      clearTimeout(timeout);
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      this.runNow();
    }, ms);
  }

  private runNow(): void {
    if (this.stopped || this.current) return;
    this.current = (async () => {
      try {
        await this.options.task();
      } catch (error) {
        this.options.onError?.(error);
      }
    })().finally(() => {
      this.current = undefined;
      const again = this.rerun;
      this.rerun = false;
      this.schedule(again ? 0 : this.options.intervalMs);
    });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }
}
