/** How long a step that SQLite refuses with SQLITE_BUSY is retried: the connection's own busy timeout. */
export const BUSY_RETRY_MS = 10_000;

/**
 * Runs a step again while SQLite answers SQLITE_BUSY without waiting, until `ms` have passed. SQLite
 * skips the busy handler when waiting could deadlock ("If SQLite determines that invoking the busy
 * handler could result in a deadlock, it will go ahead and return SQLITE_BUSY to the application",
 * https://sqlite.org/c3ref/busy_handler.html). Switching a brand-new store to WAL is such a step: a
 * connection holding a shared lock asks for an exclusive one, and when several processes open the same
 * new store at once (two agents starting on a fresh install), one of them got "database is locked".
 * Each retry starts over, so the lock that made it a deadlock is gone.
 */
export function retryBusy<T>(
  step: () => T,
  options: { ms?: number; sleep?: (ms: number) => void; now?: () => number } = {},
): T {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepSync;
  const deadline = now() + (options.ms ?? BUSY_RETRY_MS);
  for (let attempt = 0; ; attempt++) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error) || now() >= deadline) throw error;
      // A few milliseconds, growing: the other process holds the lock for one short transaction.
      sleep(Math.min(5 * 2 ** attempt, 100));
    }
  }
}

function isBusy(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "SQLITE_BUSY";
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}
