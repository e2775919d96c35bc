import { describe, expect, it } from "vitest";
import { Scheduler } from "../../src/workers/scheduler.js";
import { deferred, FakeTimers, flush } from "../helpers/fakeTimers.js";

describe("Scheduler", () => {
  it("runs at start, then every interval after the previous run ends", async () => {
    const timers = new FakeTimers();
    const runs: number[] = [];
    const scheduler = new Scheduler({ intervalMs: 1000, timers, task: async () => void runs.push(timers.now) });
    scheduler.start();
    await timers.advance(0);
    await timers.advance(3500);
    expect(runs).toEqual([0, 1000, 2000, 3000]);
    await scheduler.stop();
  });

  it("never overlaps a slow run, and a trigger during a run queues exactly one more", async () => {
    const timers = new FakeTimers();
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    let gate = deferred();
    const scheduler = new Scheduler({
      intervalMs: 100,
      timers,
      task: async () => {
        runs += 1;
        active += 1;
        maxActive = Math.max(maxActive, active);
        await gate.promise;
        active -= 1;
      },
    });
    scheduler.start();
    await timers.advance(0);
    expect(scheduler.running).toBe(true);
    await timers.advance(10_000);
    expect(runs).toBe(1);
    expect(scheduler.trigger()).toEqual({ started: false, queued: true });
    expect(scheduler.trigger()).toEqual({ started: false, queued: true });
    const first = gate;
    gate = deferred();
    first.resolve();
    await flush();
    await timers.advance(0);
    expect(runs).toBe(2);
    gate.resolve();
    await flush();
    expect(scheduler.running).toBe(false);
    expect(maxActive).toBe(1);
    await timers.advance(99);
    expect(runs).toBe(2);
    await timers.advance(1);
    expect(runs).toBe(3);
    await scheduler.stop();
  });

  it("trigger() between runs starts one at once and resets the interval", async () => {
    const timers = new FakeTimers();
    let runs = 0;
    const scheduler = new Scheduler({ intervalMs: 1000, initialDelayMs: 1000, timers, task: async () => void runs++ });
    scheduler.start();
    expect(scheduler.trigger()).toEqual({ started: true, queued: false });
    await flush();
    expect(runs).toBe(1);
    expect(timers.count).toBe(1);
    await scheduler.stop();
  });

  it("does not tick after stop, and stop waits for the run in progress", async () => {
    const timers = new FakeTimers();
    let runs = 0;
    const gate = deferred();
    const scheduler = new Scheduler({
      intervalMs: 50,
      timers,
      task: async () => {
        runs += 1;
        await gate.promise;
      },
    });
    scheduler.start();
    await timers.advance(0);
    let stopped = false;
    const stopping = scheduler.stop(5_000).then((idle) => {
      stopped = idle;
    });
    await flush();
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(stopped).toBe(true);
    expect(timers.count).toBe(0);
    await timers.advance(10_000);
    expect(runs).toBe(1);
    expect(scheduler.trigger()).toEqual({ started: false, queued: false });
    scheduler.start();
    await timers.advance(10_000);
    expect(runs).toBe(1);
  });

  it("gives up waiting after the bound, and keeps looping after a failing run", async () => {
    const timers = new FakeTimers();
    const errors: unknown[] = [];
    let runs = 0;
    const scheduler = new Scheduler({
      intervalMs: 10,
      timers,
      task: async () => {
        runs += 1;
        if (runs === 1) throw new Error("boom");
        if (runs === 3) await new Promise(() => {});
      },
      onError: (error) => errors.push(error),
    });
    scheduler.start();
    await timers.advance(0);
    await timers.advance(10);
    await timers.advance(10);
    expect(runs).toBe(3);
    expect(errors).toHaveLength(1);
    expect(await scheduler.stop(20)).toBe(false);
  });
});
