/** Milliseconds since the epoch. Injected wherever time decides behaviour, so tests can move it. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export function toIso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

/** Parses an ISO string or epoch number (seconds or milliseconds) into epoch ms; undefined when unusable. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value < 1e12 ? value * 1000 : value;
  if (typeof value === "string" && value.length > 0) {
    const ms = isoUtcMs(value) ?? Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/**
 * `Date.parse` of the one shape transcripts write on every line (`2026-10-02T07:15:03.123Z`), a few
 * times faster; undefined for anything else, and for values it leaves to `Date.parse` to judge (a
 * day past the 28th, a year before 1000), so the result is always `Date.parse`'s.
 */
function isoUtcMs(text: string): number | undefined {
  if (text.length !== 24 || text.charCodeAt(23) !== 90) return undefined;
  for (let i = 0; i < 23; i++) {
    const code = text.charCodeAt(i);
    const expected = ISO_SHAPE.charCodeAt(i);
    if (expected === 48 ? code < 48 || code > 57 : code !== expected) return undefined;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 || minute > 59 || second > 59)
    return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, digits(text, 20, 3));
}

/** Digits as "0", the separators as themselves. */
const ISO_SHAPE = "0000-00-00T00:00:00.000";

function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}
