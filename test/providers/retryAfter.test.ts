import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/providers/retryAfter.js";

const now = Date.parse("2026-03-01T12:00:00Z");
const parse = (headers: Record<string, string>) => parseRetryAfter(new Headers(headers), now);

describe("parseRetryAfter", () => {
  it("reads delay-seconds", () => {
    expect(parse({ "retry-after": "7" })).toBe(7_000);
    expect(parse({ "retry-after": "0.5" })).toBe(500);
  });

  it("reads an HTTP date relative to now, never negative", () => {
    expect(parse({ "retry-after": "Sun, 01 Mar 2026 12:00:30 GMT" })).toBe(30_000);
    expect(parse({ "retry-after": "Sun, 01 Mar 2026 11:00:00 GMT" })).toBe(0);
  });

  it("prefers retry-after-ms", () => {
    expect(parse({ "retry-after": "7", "retry-after-ms": "1234" })).toBe(1_234);
  });

  it("is undefined when absent or unreadable", () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ "retry-after": "soon" })).toBeUndefined();
  });
});
