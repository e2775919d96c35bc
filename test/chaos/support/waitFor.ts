/** Polls `probe` every 100 ms until it gives a value, failing after `timeoutMs` (a daemon that never came up). */
export async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting for the daemon");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
