/**
 * How long a server asked us to wait, in milliseconds, or undefined when it did not say.
 * Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3); OpenAI also sends the
 * more precise `retry-after-ms`, which wins when present.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null },
  now: number = Date.now(),
): number | undefined {
  const precise = headers.get("retry-after-ms");
  if (precise !== null && /^\d+(\.\d+)?$/.test(precise.trim())) return Math.ceil(Number(precise));
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
