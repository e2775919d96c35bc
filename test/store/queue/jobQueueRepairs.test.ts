import { beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/connection.js";
import { JobQueue } from "../../../src/store/queue/jobQueue.js";

// The queue's side of the maintenance worker (health, stale leases, dead jobs) and of erasure (remove).
describe("JobQueue repairs", () => {
  let now: number;
  let queue: JobQueue;
  const state = () => queue.list().map((job) => [job.kind, job.key, job.status, job.attempts]);

  beforeEach(() => {
    now = 1_000_000;
    const { db } = openDatabase(":memory:");
    queue = new JobQueue(db, { clock: () => now, random: () => 0, leaseMs: 10_000, maxAttempts: 3 });
  });

  /** Jobs a..e of kind k: a dead, b and c running (c started), d pending, e succeeded. */
  function mixed(): void {
    for (const key of ["a", "b", "c", "d", "e"]) queue.enqueue({ kind: "k", key });
    const [a, b, c] = queue.claim({ kind: "k", limit: 3 });
    queue.fail(a!, "refused", { retryable: false });
    queue.start(c!);
    queue.succeed(queue.claim({ kind: "k", keys: ["e"] })[0]!);
    queue.release(queue.claim({ kind: "k", keys: ["d"] })[0]!);
    expect([a?.key, b?.key, c?.key]).toEqual(["a", "b", "c"]);
  }

  it("health counts all jobs, the dead ones, and the running ones whose lease ran out", () => {
    expect(queue.health()).toEqual({ jobs: 0, dead: 0, stale: 0 });
    mixed();
    expect(queue.health()).toEqual({ jobs: 5, dead: 1, stale: 0 });
    now += 10_000;
    expect(queue.health()).toEqual({ jobs: 5, dead: 1, stale: 2 });
  });

  it("releaseExpired puts only expired leases back, refunding the attempt of a job never started", () => {
    mixed();
    expect(queue.releaseExpired()).toBe(0);
    now += 10_000;
    expect(queue.releaseExpired()).toBe(2);
    expect(queue.get("k", "b")).toMatchObject({ status: "pending", attempts: 0, leaseOwner: null, runAfter: now });
    expect(queue.get("k", "c")).toMatchObject({ status: "pending", attempts: 1, leaseOwner: null });
    expect(queue.health().stale).toBe(0);
    // Started again by the next claim, c's crashed attempt still counts.
    expect(queue.claim({ kind: "k", keys: ["c"] })[0]?.attempts).toBe(2);
    expect(state()).toEqual(expect.arrayContaining([["k", "a", "dead", 1]]));
  });

  it("retryDeadIds gives only the named dead jobs a fresh budget", () => {
    for (const key of ["a", "b", "c"]) queue.enqueue({ kind: "k", key });
    for (const lease of queue.claim({ kind: "k", limit: 3 })) queue.fail(lease, "refused", { retryable: false });
    const [a, b, c] = ["a", "b", "c"].map((key) => queue.get("k", key)!);
    expect(queue.retryDeadIds([])).toBe(0);
    expect(queue.retryDeadIds([a!.id, c!.id, 999])).toBe(2);
    expect(queue.get("k", "a")).toMatchObject({ status: "pending", attempts: 0, lastError: null, finishedAt: null });
    expect(queue.get("k", "b")).toMatchObject({ status: "dead", lastError: "refused" });
    expect(queue.get("k", "c")?.status).toBe("pending");
    // A job no longer dead is left as it is.
    expect(queue.retryDeadIds([a!.id, b!.id])).toBe(1);
    expect(queue.get("k", "a")?.status).toBe("pending");
  });

  it("remove deletes the named jobs of one kind only", () => {
    for (const [kind, key] of [
      ["k", "a"],
      ["k", "b"],
      ["k", "c"],
      ["other", "a"],
    ] as const)
      queue.enqueue({ kind, key });
    expect(queue.remove("k", ["a", "c", "missing"])).toBe(2);
    expect(queue.list().map((job) => [job.kind, job.key])).toEqual(
      expect.arrayContaining([
        ["k", "b"],
        ["other", "a"],
      ]),
    );
    expect(queue.list()).toHaveLength(2);
    expect(queue.remove("k", [])).toBe(0);
  });
});
