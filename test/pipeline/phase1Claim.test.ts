import { hostname } from "node:os";
import { beforeEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import { runPhase1 } from "../../src/pipeline/phase1/runPhase1.js";
import { JobQueue } from "../../src/store/queue/jobQueue.js";
import type { Storage } from "../../src/store/storage.js";
import { DAY_MS, HOUR_MS } from "../../src/util/clock.js";
import { FakeLlm, providerError } from "../helpers/fakeLlm.js";
import { addSession, memoryStorage } from "../helpers/store.js";

const answer = {
  json: {
    rollout_summary: "Fixed the parser.",
    rollout_slug: "fix-parser",
    raw_memory: "## Task\n- fix",
    facts: [],
    entities: [],
  },
};

describe("phase 1 claim rules", () => {
  let now: number;
  let storage: Storage;
  const clock = () => now;
  const config = validateConfig({ extraction: { concurrency: 4 } });

  beforeEach(() => {
    now = 100 * DAY_MS;
    storage = memoryStorage(clock);
  });

  const run = (llm: FakeLlm | null = new FakeLlm({ fallback: answer }), cfg = config) =>
    runPhase1({ storage, config: cfg, clock, llm });

  it("takes sessions idle exactly 12 hours, not one millisecond less", async () => {
    addSession(storage, clock, { id: "idle", updatedAt: now - 12 * HOUR_MS });
    addSession(storage, clock, { id: "fresh", updatedAt: now - 12 * HOUR_MS + 1 });
    const report = await run();
    expect(report.jobs.map((job) => job.sessionId)).toEqual(["idle"]);
    expect(report.pending.tooRecent).toBe(1);
  });

  it("takes sessions up to 30 days old, not older", async () => {
    addSession(storage, clock, { id: "edge", updatedAt: now - 30 * DAY_MS });
    addSession(storage, clock, { id: "old", updatedAt: now - 30 * DAY_MS - 1 });
    const report = await run();
    expect(report.jobs.map((job) => job.sessionId)).toEqual(["edge"]);
    expect(report.pending.tooOld).toBe(1);
  });

  it("skips subagent, exec and internal sessions unless configured", async () => {
    addSession(storage, clock, { id: "sub", updatedAt: now - DAY_MS, kind: "subagent" });
    addSession(storage, clock, { id: "exec", updatedAt: now - DAY_MS, kind: "exec" });
    addSession(storage, clock, { id: "main", updatedAt: now - DAY_MS });
    expect((await run()).jobs.map((job) => job.sessionId)).toEqual(["main"]);
    const withExec = validateConfig({ memories: { allowedKinds: ["interactive", "exec"] } });
    expect((await run(new FakeLlm({ fallback: answer }), withExec)).jobs.map((job) => job.sessionId)).toEqual(["exec"]);
  });

  it("selects by idle time in SQL, so many recent sessions do not starve an older one", async () => {
    for (let i = 0; i < 20; i++) addSession(storage, clock, { id: `recent-${i}`, updatedAt: now - i });
    addSession(storage, clock, { id: "older", updatedAt: now - 2 * DAY_MS });
    const cfg = validateConfig({ extraction: { scanLimit: 5 } });
    expect((await run(new FakeLlm({ fallback: answer }), cfg)).jobs.map((job) => job.sessionId)).toEqual(["older"]);
  });

  it("claims at most maxRolloutsPerStartup sessions per run", async () => {
    for (let i = 0; i < 5; i++) addSession(storage, clock, { id: `s${i}`, updatedAt: now - DAY_MS - i });
    const cfg = validateConfig({ memories: { maxRolloutsPerStartup: 2 } });
    expect((await run(new FakeLlm({ fallback: answer }), cfg)).jobs).toHaveLength(2);
    expect((await run(new FakeLlm({ fallback: answer }), cfg)).jobs).toHaveLength(2);
    expect((await run(new FakeLlm({ fallback: answer }), cfg)).jobs).toHaveLength(1);
  });

  it("reports how many eligible sessions wait for the next run, dry run included", async () => {
    for (let i = 0; i < 5; i++) addSession(storage, clock, { id: `s${i}`, updatedAt: now - DAY_MS - i });
    const cfg = validateConfig({ memories: { maxRolloutsPerStartup: 2 } });
    const dry = await runPhase1({ storage, config: cfg, clock, llm: null }, { dryRun: true });
    expect(dry.waiting).toBe(3);
    expect((await run(new FakeLlm({ fallback: answer }), cfg)).waiting).toBe(3);
    expect((await run(new FakeLlm({ fallback: answer }), cfg)).waiting).toBe(1);
    expect((await run(new FakeLlm({ fallback: answer }), cfg)).waiting).toBe(0);
  });

  it("never exceeds the global running cap, counting live leases held by other processes", async () => {
    for (let i = 0; i < 4; i++) addSession(storage, clock, { id: `s${i}`, updatedAt: now - DAY_MS - i });
    // Another process holds two live leases.
    storage.jobs.enqueue({ kind: "phase1", key: "elsewhere-1" });
    storage.jobs.enqueue({ kind: "phase1", key: "elsewhere-2" });
    expect(storage.jobs.claim({ kind: "phase1", limit: 2 })).toHaveLength(2);
    const cfg = validateConfig({ extraction: { runningCap: 3 } });
    expect((await run(new FakeLlm({ fallback: answer }), cfg)).jobs).toHaveLength(1);
  });

  it("leaves a session leased by a live worker alone and takes it over once the lease is stale", async () => {
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS });
    storage.jobs.enqueue({ kind: "phase1", key: "s", watermark: storage.sessions.get("s")!.invalidatedAt! });
    storage.jobs.claim({ kind: "phase1" });
    expect((await run()).jobs).toHaveLength(0);
    now += 60_001;
    const report = await run();
    expect(report.jobs.map((job) => [job.sessionId, job.outcome])).toEqual([["s", "succeeded"]]);
  });

  it("retries a failure only after backoff, goes dead after max attempts, and a newer session version resets it", async () => {
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS });
    const llm = new FakeLlm({ fallback: providerError("http", { statusCode: 500 }) });
    expect((await run(llm)).jobs[0]?.outcome).toBe("failed");
    expect((await run(llm)).jobs).toHaveLength(0); // still backing off: no hot loop
    expect(llm.calls).toHaveLength(1);
    now += 1_000;
    expect((await run(llm)).jobs[0]?.outcome).toBe("failed");
    now += 2_000;
    expect((await run(llm)).jobs[0]?.outcome).toBe("dead");
    now += DAY_MS;
    expect((await run(llm)).jobs).toHaveLength(0);
    expect(llm.calls).toHaveLength(3);

    // The session grows: a newer watermark makes it eligible again with a fresh retry budget.
    addSession(storage, clock, {
      id: "s",
      updatedAt: now - DAY_MS,
      items: Array.from({ length: 8 }, (_, i) => ({ role: "user" as const, text: `more work ${i}` })),
    });
    const report = await run(new FakeLlm({ fallback: answer }));
    expect(report.jobs.map((job) => job.outcome)).toEqual(["succeeded"]);
    expect(storage.jobs.get("phase1", "s")).toMatchObject({ status: "succeeded", attempts: 1 });
  });

  it("does not retry a refusal: the job goes dead at once", async () => {
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS });
    const report = await run(new FakeLlm({ fallback: providerError("refusal") }));
    expect(report.jobs[0]?.outcome).toBe("dead");
  });

  it("marks started only the sessions in a slot, so a crash spends only their attempts, not those of all it claimed", async () => {
    for (let i = 0; i < 10; i++) addSession(storage, clock, { id: `s${i}`, updatedAt: now - DAY_MS - i });
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let calls = 0;
    const llm = new FakeLlm({
      fallback: async () => {
        calls += 1;
        await gate;
        return answer;
      },
    });
    const running = run(llm, validateConfig({ extraction: { concurrency: 2 } }));
    while (calls < 2) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const started = () =>
      storage.db
        .prepare("SELECT count(*) AS claimed, count(started_at) AS started FROM jobs WHERE status = 'running'")
        .get();
    expect(started()).toEqual({ claimed: 10, started: 2 });
    // The process dies here: another one on this host reclaims the leases and finds 2 attempts spent.
    const next = new JobQueue(storage.db, { clock, owner: { host: hostname(), pid: -1, isAlive: () => false } });
    expect(next.reclaimStopped("phase1")).toBe(10);
    const spent = storage.db.prepare("SELECT sum(attempts) AS n FROM jobs").get();
    expect(spent).toEqual({ n: 2 });
    open();
    expect((await running).jobs.map((job) => job.outcome)).toEqual(Array(10).fill("lost"));
  });

  it("honours Retry-After from a 429", async () => {
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS });
    await run(new FakeLlm({ fallback: providerError("http", { statusCode: 429, retryAfterMs: 120_000 }) }));
    expect(storage.jobs.get("phase1", "s")!.runAfter - now).toBe(120_000);
  });
});
