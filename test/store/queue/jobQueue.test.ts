import type { Database } from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/connection.js";
import { backoffDelay } from "../../../src/store/queue/backoff.js";
import { JobQueue } from "../../../src/store/queue/jobQueue.js";
import { withWriteTx } from "../../../src/store/tx.js";

describe("JobQueue", () => {
  let now: number;
  let db: Database;
  let queue: JobQueue;

  beforeEach(() => {
    now = 1_000_000;
    ({ db } = openDatabase(":memory:"));
    queue = new JobQueue(db, {
      clock: () => now,
      random: () => 0,
      leaseMs: 10_000,
      maxAttempts: 3,
      backoffBaseMs: 1_000,
      backoffMaxMs: 60_000,
    });
  });

  it("claims a pending job once, with an ownership token", () => {
    queue.enqueue({ kind: "k", key: "a", payload: { x: 1 } });
    const [lease] = queue.claim({ kind: "k" });
    expect(lease).toMatchObject({ key: "a", attempts: 1, payload: { x: 1 } });
    expect(queue.claim({ kind: "k" })).toEqual([]);
    expect(queue.succeed(lease!)).toBe(true);
    expect(queue.get("k", "a")?.status).toBe("succeeded");
  });

  it("enqueues a batch in one call with the dedupe of one enqueue each", () => {
    queue.enqueue({ kind: "k", key: "a" });
    const [lease] = queue.claim({ kind: "k" });
    queue.succeed(lease!);
    const results = queue.enqueueMany([
      { kind: "k", key: "a" },
      { kind: "k", key: "b", payload: { n: 1 } },
      { kind: "k", key: "b", payload: { n: 2 } },
      { kind: "k", key: "a", watermark: 5 },
    ]);
    expect(results.map(({ created, reopened }) => ({ created, reopened }))).toEqual([
      { created: false, reopened: false },
      { created: true, reopened: false },
      { created: false, reopened: false },
      { created: false, reopened: true },
    ]);
    expect(results[2]!.id).toBe(results[1]!.id);
    expect(results[3]!.id).toBe(results[0]!.id);
    expect(queue.get("k", "b")?.payload).toEqual({ n: 1 });
    expect(queue.claim({ kind: "k", limit: 10 }).map((l) => l.key)).toEqual(["a", "b"]);
    expect(queue.enqueueMany([])).toEqual([]);
  });

  it("refuses calls from a holder whose lease was taken over", () => {
    queue.enqueue({ kind: "k", key: "a" });
    const [first] = queue.claim({ kind: "k" });
    now += 10_001;
    const [second] = queue.claim({ kind: "k" });
    expect(second?.id).toBe(first?.id);
    expect(queue.heartbeat(first!)).toBe(false);
    expect(queue.succeed(first!)).toBe(false);
    expect(queue.fail(first!, "late")).toBe("lost");
    expect(queue.succeed(second!)).toBe(true);
  });

  it("keeps a heartbeated lease alive past its original expiry", () => {
    queue.enqueue({ kind: "k", key: "a" });
    const [lease] = queue.claim({ kind: "k" });
    now += 9_000;
    expect(queue.heartbeat(lease!)).toBe(true);
    now += 9_000;
    expect(queue.claim({ kind: "k" })).toEqual([]);
  });

  it("retries with exponential backoff and goes dead after max attempts", () => {
    queue.enqueue({ kind: "k", key: "a" });
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [lease] = queue.claim({ kind: "k" });
      expect(lease?.attempts).toBe(attempt);
      const outcome = queue.fail(lease!, `boom ${attempt}`);
      const job = queue.get("k", "a")!;
      if (attempt < 3) {
        expect(outcome).toBe("retry");
        delays.push(job.runAfter - now);
        expect(queue.claim({ kind: "k" })).toEqual([]);
        now = job.runAfter;
      } else {
        expect(outcome).toBe("dead");
        expect(job.status).toBe("dead");
        expect(job.lastError).toBe("boom 3");
      }
    }
    expect(delays).toEqual([1_000, 2_000]);
  });

  it("honours a Retry-After longer than the backoff", () => {
    queue.enqueue({ kind: "k", key: "a" });
    const [lease] = queue.claim({ kind: "k" });
    queue.fail(lease!, "429", { retryAfterMs: 45_000 });
    expect(queue.get("k", "a")!.runAfter - now).toBe(45_000);
  });

  it("a newer input watermark resets the retry budget of a dead job", () => {
    queue.enqueue({ kind: "k", key: "a", watermark: 5 });
    for (let i = 0; i < 3; i++) {
      const [lease] = queue.claim({ kind: "k" });
      queue.fail(lease!, "x");
      now = queue.get("k", "a")!.runAfter;
    }
    expect(queue.get("k", "a")?.status).toBe("dead");
    expect(queue.enqueue({ kind: "k", key: "a", watermark: 5 }).reopened).toBe(false);
    expect(queue.enqueue({ kind: "k", key: "a", watermark: 6 }).reopened).toBe(true);
    const job = queue.get("k", "a")!;
    expect(job).toMatchObject({ status: "pending", attempts: 0, inputWatermark: 6 });
  });

  it("re-queues a job whose input moved on while it was running", () => {
    queue.enqueue({ kind: "k", key: "a", watermark: 1 });
    const [lease] = queue.claim({ kind: "k" });
    queue.enqueue({ kind: "k", key: "a", watermark: 2 });
    expect(queue.succeed(lease!)).toBe(true);
    expect(queue.get("k", "a")).toMatchObject({ status: "pending", inputWatermark: 2 });
    const [again] = queue.claim({ kind: "k" });
    expect(again?.inputWatermark).toBe(2);
    queue.succeed(again!, { status: "succeeded_no_output" });
    expect(queue.get("k", "a")?.status).toBe("succeeded_no_output");
  });

  it("retries at once, with a fresh budget, a job that failed on its last attempt while its input moved on", () => {
    queue.enqueue({ kind: "k", key: "a", watermark: 1 });
    for (let attempt = 1; attempt < 3; attempt++) {
      const [lease] = queue.claim({ kind: "k" });
      expect(queue.fail(lease!, `failed ${attempt}`)).toBe("retry");
      now += 60_000;
    }
    const [last] = queue.claim({ kind: "k" });
    expect(last?.attempts).toBe(3);
    // New input arrived while the last attempt ran: its failure says nothing about that input.
    queue.enqueue({ kind: "k", key: "a", watermark: 2 });
    expect(queue.fail(last!, "failed 3")).toBe("retry");
    expect(queue.get("k", "a")).toMatchObject({ status: "pending", attempts: 0, runAfter: now, lastError: "failed 3" });
    expect(queue.claim({ kind: "k" })[0]).toMatchObject({ inputWatermark: 2, attempts: 1 });
  });

  it("never holds more live leases of a kind than the running cap", () => {
    for (let i = 0; i < 10; i++) queue.enqueue({ kind: "k", key: `j${i}` });
    expect(queue.claim({ kind: "k", limit: 10, runningCap: 4 })).toHaveLength(4);
    expect(queue.claim({ kind: "k", limit: 10, runningCap: 4 })).toHaveLength(0);
    now += 10_001;
    // Expired leases no longer count against the cap and can be taken over.
    expect(queue.claim({ kind: "k", limit: 10, runningCap: 4 })).toHaveLength(4);
  });

  it("sends a job whose holders keep crashing to dead instead of running it forever", () => {
    queue.enqueue({ kind: "k", key: "a" });
    for (let i = 0; i < 3; i++) {
      const leases = queue.claim({ kind: "k" });
      expect(leases).toHaveLength(1);
      queue.start(...leases);
      now += 10_001;
    }
    expect(queue.claim({ kind: "k" })).toEqual([]);
    expect(queue.get("k", "a")?.status).toBe("dead");
  });

  it("spends no attempt when a holder's lease runs out before it started the job", () => {
    queue.enqueue({ kind: "k", key: "a" });
    for (let i = 0; i < 5; i++) {
      expect(queue.claim({ kind: "k" })).toHaveLength(1);
      now += 10_001;
    }
    expect(queue.get("k", "a")).toMatchObject({ status: "running", attempts: 1 });
  });

  it("retryDead gives every dead job, of any kind, a fresh budget and counts them by kind", () => {
    for (const [kind, key] of [
      ["k", "a"],
      ["k", "b"],
      ["other", "c"],
      ["k", "alive"],
    ] as const)
      queue.enqueue({ kind, key });
    for (const kind of ["k", "k", "other"]) {
      const [lease] = queue.claim({ kind });
      queue.fail(lease!, "refused", { retryable: false });
    }
    expect(queue.retryDead()).toEqual({ k: 2, other: 1 });
    expect(queue.list().map((job) => [job.key, job.status, job.attempts, job.lastError])).toEqual(
      expect.arrayContaining([
        ["a", "pending", 0, null],
        ["b", "pending", 0, null],
        ["c", "pending", 0, null],
        ["alive", "pending", 0, null],
      ]),
    );
    expect(queue.claim({ kind: "k", limit: 3 })).toHaveLength(3);
    expect(queue.retryDead()).toEqual({});
  });

  it("release gives a job back without spending an attempt", () => {
    queue.enqueue({ kind: "k", key: "a" });
    const [lease] = queue.claim({ kind: "k" });
    expect(queue.release(lease!)).toBe(true);
    expect(queue.get("k", "a")).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("returns a job's payload and result as given, and nothing for those it was not given", () => {
    queue.enqueue({ kind: "k", key: "a" });
    queue.enqueue({ kind: "k", key: "b", payload: { n: 1 } });
    const [a, b] = queue.claim({ kind: "k", limit: 2 });
    expect(a?.payload).toBeUndefined();
    expect(b?.payload).toEqual({ n: 1 });
    queue.succeed(a!);
    queue.succeed(b!, { result: { stored: 2 } });
    expect(queue.get("k", "a")?.result).toBeUndefined();
    expect(queue.get("k", "b")?.result).toEqual({ stored: 2 });
  });

  it("keeps the first 2,000 characters of an error", () => {
    queue.enqueue({ kind: "k", key: "a" });
    const [lease] = queue.claim({ kind: "k" });
    queue.fail(lease!, `${"x".repeat(2_000)}the tail of a long model answer`);
    expect(queue.get("k", "a")?.lastError).toBe("x".repeat(2_000));
  });

  it("says whether release gave the job back: not once the lease was taken over", () => {
    queue.enqueue({ kind: "k", key: "a" });
    const [first] = queue.claim({ kind: "k" });
    now += 10_001;
    const [second] = queue.claim({ kind: "k" });
    expect(queue.release(first!)).toBe(false);
    expect(queue.get("k", "a")).toMatchObject({ status: "running", leaseOwner: second!.token });
  });

  it("tells a holder its newer input was seen while it ran, without reopening the job under it", () => {
    const first = queue.enqueue({ kind: "k", key: "a", watermark: 1 });
    const [lease] = queue.claim({ kind: "k" });
    expect(queue.enqueue({ kind: "k", key: "a", watermark: 2 })).toEqual({
      id: first.id,
      created: false,
      reopened: false,
    });
    expect(queue.get("k", "a")).toMatchObject({ status: "running", leaseOwner: lease!.token, inputWatermark: 2 });
  });

  it("names the cause when a job whose started holders keep losing their lease goes dead", () => {
    const crashUntilDead = (key: string) => {
      for (let leases = queue.claim({ kind: "k", keys: [key] }); leases.length > 0; ) {
        queue.start(...leases);
        now += 10_001;
        leases = queue.claim({ kind: "k", keys: [key] });
      }
      return queue.get("k", key);
    };
    queue.enqueue({ kind: "k", key: "a" });
    expect(crashUntilDead("a")).toMatchObject({
      status: "dead",
      attempts: 3,
      lastError: "lease expired too many times (worker crashed?)",
    });
    // A job that failed before its holders crashed keeps the error it failed with.
    queue.enqueue({ kind: "k", key: "b" });
    queue.fail(queue.claim({ kind: "k", keys: ["b"] })[0]!, "provider said no");
    now = queue.get("k", "b")!.runAfter;
    expect(crashUntilDead("b")).toMatchObject({ status: "dead", attempts: 3, lastError: "provider said no" });
  });

  it("takes over a job on its last attempt whose holder never started it, without spending or refunding one", () => {
    queue.enqueue({ kind: "k", key: "a" });
    for (let attempt = 1; attempt < 3; attempt++) {
      queue.fail(queue.claim({ kind: "k" })[0]!, "x");
      now = queue.get("k", "a")!.runAfter;
    }
    expect(queue.claim({ kind: "k" })[0]?.attempts).toBe(3);
    now += 10_001;
    expect(queue.claim({ kind: "k" })[0]?.attempts).toBe(3);
    expect(queue.get("k", "a")).toMatchObject({ status: "running", attempts: 3 });
  });

  it("keeps a lease to give back when the caller's transaction rolls back its success, and after a heartbeat", () => {
    queue.enqueue({ kind: "k", key: "a" });
    queue.enqueue({ kind: "k", key: "b" });
    const [a, b] = queue.claim({ kind: "k", limit: 2 });
    expect(() =>
      withWriteTx(db, () => {
        queue.succeed(a!);
        throw new Error("the write after it failed");
      }),
    ).toThrow("the write after it failed");
    expect(queue.heartbeat(b!)).toBe(true);
    expect(queue.releaseHeld()).toBe(2);
    expect(queue.list().map((job) => [job.key, job.status])).toEqual(
      expect.arrayContaining([
        ["a", "pending"],
        ["b", "pending"],
      ]),
    );
  });

  it("reports stale leases in stats", () => {
    queue.enqueue({ kind: "k", key: "a" });
    queue.enqueue({ kind: "k", key: "b" });
    queue.claim({ kind: "k" });
    now += 10_001;
    expect(queue.stats()).toEqual({ k: { stale: 1, pending: 1 } });
  });
});

describe("backoffDelay", () => {
  it("doubles per attempt, caps, and adds at most a quarter of jitter", () => {
    expect(backoffDelay({ attempt: 1, baseMs: 100, maxMs: 1000, random: () => 0 })).toBe(100);
    expect(backoffDelay({ attempt: 4, baseMs: 100, maxMs: 1000, random: () => 0 })).toBe(800);
    expect(backoffDelay({ attempt: 9, baseMs: 100, maxMs: 1000, random: () => 0 })).toBe(1000);
    expect(backoffDelay({ attempt: 9, baseMs: 100, maxMs: 1000, random: () => 0.999 })).toBe(1249);
  });
});
