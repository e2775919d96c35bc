import { afterEach, describe, expect, it } from "vitest";
import { type Cairn, openCairn } from "../../src/cairn.js";
import type { RepairAction } from "../../src/memory/health/diagnostics.js";
import { healthScore, readDiagnostics, recommend } from "../../src/memory/health/diagnostics.js";
import { lastHealthReport, type Repair, runHealthCycle, storeRepairs } from "../../src/memory/health/runHealthCycle.js";
import { maintenanceWorker } from "../../src/workers/maintenanceWorker.js";
import { WorkerSet } from "../../src/workers/workerSet.js";
import { removeTempDirs, tempDir } from "../helpers/tempDir.js";

const MINUTE = 60_000;
const limits = { cooldownMs: MINUTE, hourlyBudget: 10, haltAfter: 3 };

let now = 1_800_000_000_000;
const clock = () => now;

function cairnWith(memories: number): Promise<Cairn> {
  const home = tempDir();
  const cairn = openCairn({ home, env: { CAIRN_HOME: home }, clock });
  return cairn
    .remember(
      Array.from({ length: memories }, (_, i) => ({
        content: `service-${i} listens on port ${4000 + i} behind the gateway`,
        scope: "global",
      })),
    )
    .then(() => cairn);
}

const noRepairs = (): Record<RepairAction, Repair> => ({
  requeueDeadJobs: async () => 0,
  releaseStaleLeases: async () => 0,
  rebuildFts: async () => 0,
  reembed: async () => 0,
  triggerRetention: async () => 0,
});

const keywordHits = (cairn: Cairn) =>
  (
    cairn.storage.db.prepare("SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH 'gateway'").get() as {
      n: number;
    }
  ).n;

afterEach(removeTempDirs);

describe("store diagnostics", () => {
  it("finds dead jobs, stale leases, a search index out of step and tombstones, and scores them", async () => {
    const cairn = await cairnWith(10);
    const { storage } = cairn;
    const healthy = readDiagnostics(storage, null);
    expect(healthy.index).toEqual({ liveMemories: 10, ftsRows: 10 });
    expect(recommend(healthy)).toEqual([]);
    expect(healthScore(healthy).score).toBe(1);

    for (let i = 0; i < 4; i++) storage.jobs.enqueue({ kind: "probe", key: `k${i}`, maxAttempts: 1 });
    for (const lease of storage.jobs.claim({ kind: "probe", limit: 2 })) storage.jobs.fail(lease, "broken");
    storage.jobs.claim({ kind: "probe", limit: 1, leaseMs: 1000 });
    storage.db.prepare("DELETE FROM memories_fts WHERE rowid IN (SELECT id FROM memories LIMIT 2)").run();
    const ids = (storage.db.prepare("SELECT id FROM memories LIMIT 6").all() as Array<{ id: number }>).map((r) => r.id);
    for (const id of ids.slice(2)) cairn.forgetMemory({ id });
    now += 5000;

    const sick = readDiagnostics(storage, null);
    expect(sick.queue).toMatchObject({ dead: 2, staleLeases: 1 });
    expect(sick.index).toEqual({ liveMemories: 6, ftsRows: 4 });
    expect(sick.storage.tombstoneRatio).toBeCloseTo(0.4);
    expect(recommend(sick).map((r) => r.action)).toEqual([
      "requeueDeadJobs",
      "releaseStaleLeases",
      "rebuildFts",
      "triggerRetention",
    ]);
    expect(healthScore(sick).score).toBeLessThan(0.8);
    cairn.close();
  });
});

describe("the maintenance cycle", () => {
  it("in observe mode reports and repairs nothing; in execute mode repairs and the score rises", async () => {
    const cairn = await cairnWith(8);
    const { storage } = cairn;
    storage.jobs.enqueue({ kind: "probe", key: "a", maxAttempts: 1 });
    for (const lease of storage.jobs.claim({ kind: "probe" })) storage.jobs.fail(lease, "broken");
    storage.db.prepare("DELETE FROM memories_fts WHERE rowid IN (SELECT id FROM memories LIMIT 3)").run();

    const observed = await runHealthCycle({
      storage,
      now: clock,
      mode: "observe",
      limits,
      embeddingModel: null,
      repairs: { ...noRepairs(), ...storeRepairs(storage, clock) },
    });
    expect(observed.actions.map((a) => a.outcome)).toEqual(["observed", "observed"]);
    expect(readDiagnostics(storage, null).index.ftsRows).toBe(5);
    expect(keywordHits(cairn)).toBe(5);

    // A dead job is requeued only once it has been dead an hour.
    now += 2 * 3_600_000;
    const executed = await runHealthCycle({
      storage,
      now: clock,
      mode: "execute",
      limits,
      embeddingModel: null,
      repairs: { ...noRepairs(), ...storeRepairs(storage, clock) },
    });
    expect(executed.actions.map((a) => [a.action, a.outcome])).toEqual([
      ["requeueDeadJobs", "ran"],
      ["rebuildFts", "ran"],
    ]);
    expect(executed.actions.every((a) => (a.delta ?? 0) > 0)).toBe(true);
    expect(readDiagnostics(storage, null).index.ftsRows).toBe(8);
    expect(storage.jobs.get("probe", "a")?.status).toBe("pending");
    expect(executed.healthAfter?.score).toBe(1);
    // The rebuilt rows are found by keyword again.
    expect(keywordHits(cairn)).toBe(8);
    cairn.close();
  });

  it("requeues a dead job once, an hour after it died: one that dies again stays dead for the user", async () => {
    const cairn = await cairnWith(2);
    const { storage } = cairn;
    const die = () => {
      for (const lease of storage.jobs.claim({ kind: "probe" })) storage.jobs.fail(lease, "provider down");
    };
    storage.jobs.enqueue({ kind: "probe", key: "a", maxAttempts: 1 });
    die();
    const requeue = storeRepairs(storage, clock).requeueDeadJobs;
    expect(await requeue()).toBe(0);
    now += 3_600_000;
    expect(await requeue()).toBe(1);
    expect(storage.jobs.get("probe", "a")?.status).toBe("pending");
    die();
    now += 5 * 3_600_000;
    expect(await requeue()).toBe(0);
    expect(storage.jobs.get("probe", "a")?.status).toBe("dead");
    // The user's own retry is not limited.
    expect(cairn.retryDead()).toEqual({ probe: 1 });
    cairn.close();
  });

  it("holds an action to its cooldown and hourly budget, and halts one that does not help until health is good", async () => {
    const cairn = await cairnWith(4);
    const { storage } = cairn;
    storage.db.prepare("DELETE FROM memories_fts WHERE rowid IN (SELECT id FROM memories LIMIT 1)").run();
    let runs = 0;
    const useless = { ...noRepairs(), rebuildFts: async () => ++runs };
    const cycle = () =>
      runHealthCycle({ storage, now: clock, mode: "execute", limits, embeddingModel: null, repairs: useless });

    expect((await cycle()).actions[0]).toMatchObject({ outcome: "ran", delta: 0 });
    now += 10_000;
    expect((await cycle()).actions[0]).toMatchObject({
      outcome: "skipped",
      why: expect.stringMatching(/cooling down/),
    });
    now += MINUTE;
    await cycle();
    now += MINUTE;
    const third = await cycle();
    expect(third.halted).toEqual(["rebuildFts"]);
    now += MINUTE;
    expect((await cycle()).actions[0]).toMatchObject({ outcome: "skipped", why: expect.stringMatching(/^halted/) });
    expect(runs).toBe(3);

    // Health good again (the index mended by other means): the halt is lifted.
    storeRepairs(storage, clock).rebuildFts();
    expect((await cycle()).halted).toEqual([]);
    storage.db.prepare("DELETE FROM memories_fts WHERE rowid IN (SELECT id FROM memories LIMIT 1)").run();
    now += MINUTE;
    expect((await cycle()).actions[0]?.outcome).toBe("ran");

    // Budget: two runs an hour at most.
    const tight = { ...limits, hourlyBudget: 2, haltAfter: 100 };
    const budgeted = () =>
      runHealthCycle({ storage, now: clock, mode: "execute", limits: tight, embeddingModel: null, repairs: useless });
    now += MINUTE;
    await budgeted();
    now += MINUTE;
    expect((await budgeted()).actions[0]).toMatchObject({ outcome: "skipped", why: expect.stringMatching(/budget/) });
    now += 60 * MINUTE;
    expect((await budgeted()).actions[0]?.outcome).toBe("ran");
    cairn.close();
  });

  it("runs as a worker on the queue, and its schedule stays off under pipeline.autonomousFrozen", async () => {
    const home = tempDir();
    const frozen = openCairn({
      home,
      env: { CAIRN_HOME: home },
      clock,
      config: { pipeline: { autonomousFrozen: true } },
    });
    expect((await frozen.workers()).get("maintenance")?.start()).toBe(false);
    frozen.close();

    const cairn = await cairnWith(3);
    cairn.storage.db.prepare("DELETE FROM memories_fts WHERE rowid IN (SELECT id FROM memories LIMIT 1)").run();
    const report = await cairn.run();
    expect(report.workers.maintenance).toMatchObject({ processed: 1, failed: 0 });
    expect(readDiagnostics(cairn.storage, null).index.ftsRows).toBe(3);
    // Same period: nothing due; the stats say so.
    expect((await cairn.run()).workers.maintenance?.skipped).toBe("nothing due");
    expect(cairn.status().workers.maintenance).toMatchObject({ processed: 1, skippedCycles: 1 });
    cairn.close();
  });

  it("triggers a retention sweep when tombstones pass 30 %, and says why not when retention is off", async () => {
    const cairn = await cairnWith(10);
    const ids = (await cairn.recall({ query: "gateway", scope: "global", k: 20 })).results.map((r) => r.id);
    for (const id of ids.slice(0, 6)) cairn.forgetMemory({ id });
    now += 31 * 24 * 3_600_000;
    const host = {
      storage: cairn.storage,
      config: cairn.config,
      clock,
      log: () => {},
      embeddingModel: () => null,
      refreshEmbeddings: async () => 0,
      home: cairn.paths.home,
      llm: async () => null,
    };
    const only = new WorkerSet(host, { factories: [["maintenance", maintenanceWorker]] });
    await only.tickAll();
    const report = lastHealthReport(cairn.storage);
    expect(report?.actions).toEqual([expect.objectContaining({ action: "triggerRetention", outcome: "ran" })]);
    expect(cairn.storage.memories.counts()).toMatchObject({ live: 4, deleted: 0 });
    expect(report?.healthAfter?.score).toBe(1);
    cairn.close();

    const off = await cairnWith(10);
    const offIds = (await off.recall({ query: "gateway", scope: "global", k: 20 })).results.map((r) => r.id);
    for (const id of offIds.slice(0, 6)) off.forgetMemory({ id });
    const config = {
      ...off.config,
      workers: { ...off.config.workers, retention: { ...off.config.workers.retention, enabled: false } },
    };
    await new WorkerSet(
      { ...host, storage: off.storage, config },
      { factories: [["maintenance", maintenanceWorker]] },
    ).tickAll();
    expect(lastHealthReport(off.storage)?.actions[0]).toMatchObject({
      action: "triggerRetention",
      outcome: "failed",
      why: "workers.retention.enabled is false",
    });
    expect(off.storage.memories.counts().deleted).toBe(6);
    off.close();
  });

  it("says the re-embed repair cannot run while recall.embeddingTracker.enabled is false, instead of reporting it ran", async () => {
    const cairn = await cairnWith(4);
    let drains = 0;
    const config = {
      ...cairn.config,
      recall: { ...cairn.config.recall, embeddingTracker: { ...cairn.config.recall.embeddingTracker, enabled: false } },
    };
    const host = {
      storage: cairn.storage,
      config,
      clock,
      log: () => {},
      // Another model than the one the memories were embedded with: every vector is stale.
      embeddingModel: () => "another-model",
      refreshEmbeddings: async () => {
        drains++;
        return 0;
      },
      home: cairn.paths.home,
      llm: async () => null,
    };
    await new WorkerSet(host, { factories: [["maintenance", maintenanceWorker]] }).tickAll();
    expect(lastHealthReport(cairn.storage)?.actions).toEqual([
      expect.objectContaining({
        action: "reembed",
        outcome: "failed",
        why: "recall.embeddingTracker.enabled is false",
      }),
    ]);
    expect(drains).toBe(0);
    cairn.close();
  });
});
