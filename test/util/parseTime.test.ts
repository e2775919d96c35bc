import { describe, expect, it } from "vitest";
import { parseTime } from "../../src/util/clock.js";

describe("parseTime", () => {
  it("reads ISO timestamps exactly as Date.parse does, whatever their shape", () => {
    const samples = [
      "2026-10-02T07:15:03.123Z",
      "1999-12-31T23:59:59.999Z",
      "2024-02-28T00:00:00.000Z",
      "2024-02-29T12:00:00.000Z",
      "2025-02-29T12:00:00.000Z",
      "2026-04-31T00:00:00.000Z",
      "2026-01-31T10:00:00.500Z",
      "2026-13-01T00:00:00.000Z",
      "2026-00-10T00:00:00.000Z",
      "2026-01-00T00:00:00.000Z",
      "2026-01-10T24:00:00.000Z",
      "2026-01-10T23:60:00.000Z",
      "2026-01-10T23:59:60.000Z",
      "0050-01-10T10:00:00.000Z",
      "0999-01-10T10:00:00.000Z",
      "2026-01-10T10:00:00.000+02:00",
      "2026-01-10T10:00:00Z",
      "2026-01-10 10:00:00.000Z",
      "2026-01-1OT10:00:00.000Z",
      "2026/01/10T10:00:00.000Z",
      "Tue, 24 Nov 2026 07:00:00 GMT",
      "not a date at all, 24 chars",
    ];
    for (let day = 1; day <= 31; day++)
      for (const month of [1, 2, 4, 12])
        samples.push(`2026-${pad(month)}-${pad(day)}T${pad(day % 24)}:${pad(day)}:${pad(59 - day)}.${day}00Z`);
    for (const sample of samples) {
      const expected = Date.parse(sample);
      expect(parseTime(sample), sample).toBe(Number.isNaN(expected) ? undefined : expected);
    }
  });

  it("takes epoch numbers in seconds or milliseconds", () => {
    expect(parseTime(1_790_000_000)).toBe(1_790_000_000_000);
    expect(parseTime(1_790_000_000_123)).toBe(1_790_000_000_123);
    expect(parseTime(Number.NaN)).toBeUndefined();
    expect(parseTime("")).toBeUndefined();
  });
});

function pad(value: number): string {
  return String(value).padStart(2, "0");
}
