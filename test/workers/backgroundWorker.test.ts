import { afterEach, describe, expect, it } from "vitest";
import { openCairn } from "../../src/cairn.js";
import { configSchema } from "../../src/config/schema.js";
import type { Storage } from "../../src/store/storage.js";
import { BackgroundWorker, type WorkerCycle } from "../../src/workers/backgroundWorker.js";
import { enqueuePeriodic, runQueuedJobs } from "../../src/workers/runQueuedJobs.js";
import { WorkerSet } from "../../src/workers/workerSet.js";
import { readWorkerStats, storeStatsSink } from "../../src/workers/workerStatsStore.js";
import { deferred, FakeTimers, flush } from "../helpers/fakeTimers.js";
import { memoryStorage } from "../helpers/store.js";
import { removeTempDirs, tempDir } from "../helpers/tempDir.js";

const HOUR = 3_600_000;
const cycleOf = (processed: number, extra: Partial<WorkerCycle> = {}): WorkerCycle => ({
  processed,
  failed: 0,
  queueDepth: 0,
  ...extra,
});

afterEach(removeTempDirs);

describe("BackgroundWorker", () => {
  it("counts processed, failed and skipped cycles, and a cycle that throws does not stop the loop", async () => {
    const timers = new FakeTimers();
    const outcomes: Array<WorkerCycle | Error> = [
      cycleOf(3),
      new Error("disk on fire\nstack"),
      cycleOf(0, { skipped: "nothing due" }),
      cycleOf(2, { failed: 1, queueDepth: 4 }),
    ];
    const errors: string[] = [];
    const worker = new BackgroundWorker(
      {
        name: "w",
        intervalMs: 1000,
        cycle: async () => {
          const next = outcomes.shift() ?? cycleOf(0);
          if (next instanceof Error) throw next;
          return next;
        },
      },
      { timers, clock: () => timers.now, onError: (name) => errors.push(name) },
    );
    expect(worker.start()).toBe(true);
    await timers.advance(0);
    await timers.advance(3000);
    const stats = worker.stats();
    expect(stats).toMatchObject({ processed: 5, failed: 2, skippedCycles: 1, queueDepth: 4, lastSkip: "nothing due" });
    expect(stats.lastCycleAt).toBe(3000);
    expect(errors).toEqual(["w"]);
    await worker.stop();
  });

  it("never starts a cycle after stop, and a tick joins the cycle in progress instead of starting a second", async () => {
    const timers = new FakeTimers();
    const gate = deferred();
    let runs = 0;
    const worker = new BackgroundWorker(
      {
        name: "w",
        intervalMs: 1000,
        cycle: async () => {
          runs++;
          await gate.promise;
          return cycleOf(1);
        },
      },
      { timers },
    );
    const first = worker.tick();
    const second = worker.tick();
    expect(worker.stats().running).toBe(true);
    gate.resolve();
    expect(await first).toEqual(await second);
    expect(runs).toBe(1);
    worker.start();
    const stopped = worker.stop();
    await timers.advance(10_000);
    expect(await stopped).toBe(true);
    expect((await worker.tick()).skipped).toBe("stopped");
    expect(runs).toBe(1);
    expect(timers.count).toBe(0);
  });

  it("does not start a schedule its spec turned off, but a tick still runs on demand", async () => {
    const timers = new FakeTimers();
    let runs = 0;
    const worker = new BackgroundWorker(
      {
        name: "w",
        intervalMs: 1000,
        scheduleOff: "pipeline.autonomousFrozen is true",
        cycle: async () => cycleOf(++runs),
      },
      { timers },
    );
    expect(worker.start()).toBe(false);
    await timers.advance(5000);
    expect(runs).toBe(0);
    await worker.tick();
    expect(runs).toBe(1);
  });
});

describe("runQueuedJobs", () => {
  let now = 0;
  const clock = () => now;

  it("retries a failing job with backoff and ends it dead after its attempts", async () => {
    const storage: Storage = memoryStorage(clock);
    storage.jobs.enqueue({ kind: "k", key: "a" });
    const work = async () => {
      throw new Error("bad input");
    };
    const first = await runQueuedJobs({ jobs: storage.jobs, kind: "k", limit: 5, leaseMs: 60_000, work });
    expect(first).toMatchObject({ processed: 0, failed: 1, queueDepth: 1 });
    // Backing off: not runnable yet.
    expect((await runQueuedJobs({ jobs: storage.jobs, kind: "k", limit: 5, leaseMs: 60_000, work })).skipped).toBe(
      "nothing due",
    );
    for (let i = 0; i < 5; i++) {
      now += HOUR;
      await runQueuedJobs({ jobs: storage.jobs, kind: "k", limit: 5, leaseMs: 60_000, work });
    }
    expect(storage.jobs.get("k", "a")).toMatchObject({ status: "dead", attempts: 3, lastError: "bad input" });
    storage.close();
  });

  it("runs a periodic job once per period, whichever process asks, and again in the next period", async () => {
    const storage = memoryStorage(clock);
    now = 10 * HOUR + 5;
    let ran = 0;
    const cycle = async () => {
      enqueuePeriodic(storage.jobs, { kind: "sweep", key: "sweep", intervalMs: 6 * HOUR, now });
      return runQueuedJobs({
        jobs: storage.jobs,
        kind: "sweep",
        limit: 1,
        leaseMs: 60_000,
        work: async () => ({ processed: ++ran }),
      });
    };
    await cycle();
    await cycle();
    now += HOUR;
    await cycle();
    expect(ran).toBe(1);
    now = 12 * HOUR + 1;
    await cycle();
    expect(ran).toBe(2);
    expect(storage.jobs.list({ kind: "sweep" })).toHaveLength(1);
    storage.close();
  });
});

describe("worker stats", () => {
  it("are stored, so another process's status sees them, and a store that refuses the write does not fail the cycle", async () => {
    const storage = memoryStorage(() => 0);
    const sink = storeStatsSink(() => storage);
    sink.record("retention", cycleOf(7, { queueDepth: 2 }), 100);
    sink.record("retention", { error: "boom" }, 200);
    sink.record("retention", cycleOf(0, { skipped: "nothing due" }), 300);
    expect(readWorkerStats(storage.meta, ["retention", "never"])).toEqual({
      retention: {
        running: false,
        processed: 7,
        failed: 1,
        skippedCycles: 1,
        lastCycleAt: 300,
        queueDepth: 0,
        lastError: "boom",
        lastSkip: "nothing due",
      },
      never: expect.objectContaining({ processed: 0, lastCycleAt: null }),
    });
    const broken = new BackgroundWorker(
      { name: "x", intervalMs: 1, cycle: async () => cycleOf(1) },
      {
        sink: {
          record: () => {
            throw new Error("database is locked");
          },
        },
      },
    );
    expect(await broken.tick()).toEqual(cycleOf(1));
    storage.close();
  });

  it("reach `status` through the library, and a run ticks each worker as its last step", async () => {
    const home = tempDir();
    const cairn = openCairn({ home, env: { CAIRN_HOME: home } });
    let ticks = 0;
    const set = new WorkerSet(
      {
        storage: cairn.storage,
        config: configSchema().parse({}),
        clock: () => 1234,
        log: () => {},
        embeddingModel: () => null,
        refreshEmbeddings: async () => 0,
        home,
        llm: async () => null,
      },
      { factories: [["demo", () => ({ name: "demo", intervalMs: 1000, cycle: async () => cycleOf(++ticks) })]] },
    );
    expect(await set.tickAll()).toEqual({ demo: cycleOf(1) });
    await flush();
    expect(readWorkerStats(cairn.storage.meta, ["demo"]).demo).toMatchObject({ processed: 1, lastCycleAt: 1234 });
    const report = await cairn.run();
    expect(report.workers).toEqual(
      Object.fromEntries(Object.keys(cairn.status().workers).map((name) => [name, expect.anything()])),
    );
    cairn.close();
  });
});
