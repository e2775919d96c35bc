/**
 * Exponential backoff with jitter: base * 2^(attempt-1), capped, plus up to a quarter of the delay at
 * random so that workers failing together do not retry together. A server's Retry-After is a floor.
 */
export function backoffDelay(options: {
  attempt: number;
  baseMs: number;
  maxMs: number;
  random?: () => number;
  retryAfterMs?: number;
}): number {
  const exponent = Math.max(0, options.attempt - 1);
  const raw = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(exponent, 40));
  const jitter = Math.floor(raw * 0.25 * (options.random ?? Math.random)());
  return Math.max(raw + jitter, options.retryAfterMs ?? 0);
}
