/**
 * A mutex for the threads of one process, over a SharedArrayBuffer. The scan's import workers take
 * turns at the store through it: SQLite would also serialize them, but its busy handler polls with
 * sleeps of a millisecond or more, which is longer than most files take to write. The slot holds 0
 * when free, else the number of the holder, so a holder that died can be released by the parent.
 */
export class ThreadMutex {
  private readonly slot: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.slot = new Int32Array(buffer);
  }

  /** Runs `fn` holding the mutex. `holder` is a positive number unique to the calling thread. */
  hold<T>(holder: number, fn: () => T): T {
    this.acquire(holder);
    try {
      return fn();
    } finally {
      this.release(holder);
    }
  }

  /** Frees the mutex if `holder` has it (a holder that died cannot free it itself). */
  release(holder: number): void {
    if (Atomics.compareExchange(this.slot, 0, holder, 0) === holder) Atomics.notify(this.slot, 0, 1);
  }

  private acquire(holder: number): void {
    if (!Number.isInteger(holder) || holder <= 0) throw new Error(`mutex holder must be a positive integer: ${holder}`);
    for (;;) {
      const current = Atomics.compareExchange(this.slot, 0, 0, holder);
      if (current === 0) return;
      if (current === holder) throw new Error("mutex is not re-entrant");
      // The timeout only bounds a missed wake-up; a release always notifies.
      Atomics.wait(this.slot, 0, current, 1000);
    }
  }
}
