import { afterEach, describe, expect, it, vi } from "vitest";
import { startLeaseHeartbeat } from "../../../src/store/queue/leaseHeartbeat.js";
import type { Lease } from "../../../src/store/queue/types.js";

const lease = (key: string) => ({ kind: "phase1", key, token: key }) as unknown as Lease;

describe("startLeaseHeartbeat", () => {
  afterEach(() => vi.useRealTimers());

  it("renews every third of the lease, stops renewing finished and lost leases, and reports a loss once", () => {
    vi.useFakeTimers();
    const renewed: string[] = [];
    const lost: string[] = [];
    const [a, b, c] = [lease("a"), lease("b"), lease("c")];
    const heartbeat = startLeaseHeartbeat({
      jobs: {
        heartbeat: (held) => {
          renewed.push(held.key);
          return held.key !== "b";
        },
      },
      leases: [a, b, c],
      leaseMs: 30_000,
      onLost: (held) => lost.push(held.key),
    });
    vi.advanceTimersByTime(9_999);
    expect(renewed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(renewed).toEqual(["a", "b", "c"]);
    heartbeat.done(c);
    vi.advanceTimersByTime(10_000);
    expect(renewed).toEqual(["a", "b", "c", "a"]);
    expect(lost).toEqual(["b"]);
    heartbeat.stop();
    vi.advanceTimersByTime(60_000);
    expect(renewed).toHaveLength(4);
  });

  it("renews at least once a second however short the lease", () => {
    vi.useFakeTimers();
    let renewals = 0;
    const heartbeat = startLeaseHeartbeat({
      jobs: { heartbeat: () => ++renewals > 0 },
      leases: [lease("a")],
      leaseMs: 300,
    });
    vi.advanceTimersByTime(999);
    expect(renewals).toBe(0);
    vi.advanceTimersByTime(1);
    expect(renewals).toBe(1);
    heartbeat.stop();
  });
});
