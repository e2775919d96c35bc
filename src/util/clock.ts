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
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
