import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../../src/store/connection.js";
import { describeForeignLeases } from "../../../src/store/queue/describeForeignLeases.js";
import { JobQueue } from "../../../src/store/queue/jobQueue.js";
import type { OwnerProbe } from "../../../src/store/queue/leaseOwner.js";
import { releaseOnSignal } from "../../../src/store/queue/releaseOnSignal.js";
import { withWriteTx } from "../../../src/store/tx.js";

const NOW = Date.parse("2026-11-01T10:00:00.000Z");
const probe = (pid: number, alive: (pid: number) => boolean, host = "box"): OwnerProbe => ({
  host,
  pid,
  isAlive: alive,
});

function queues() {
  const { db } = openDatabase(":memory:");
  const options = { clock: () => NOW, leaseMs: 300_000, maxAttempts: 5 };
  const crashed = new JobQueue(db, { ...options, owner: probe(100, () => true) });
  for (const key of ["a", "b", "c"]) crashed.enqueue({ kind: "phase1", key });
  return { db, options, crashed };
}

describe("leases of a process that failed, was stopped or crashed", () => {
  it("are taken over at once when the holder ran on this host and its process is gone", () => {
    const { db, options, crashed } = queues();
    expect(crashed.claim({ kind: "phase1", limit: 3 })).toHaveLength(3);
    const next = new JobQueue(db, { ...options, owner: probe(200, (pid) => pid !== 100) });
    expect(next.foreignLeases("phase1")).toMatchObject({ held: 3, stopped: 3 });
    const taken = next.claim({ kind: "phase1", limit: 3, runningCap: 3 });
    expect(taken.map((lease) => lease.key).sort()).toEqual(["a", "b", "c"]);
    expect(next.foreignLeases("phase1").held).toBe(0);
  });

  it("are left alone while the holder may still run (alive, on another host, or an older token)", () => {
    const { db, options, crashed } = queues();
    crashed.claim({ kind: "phase1", limit: 1 });
    const elsewhere = new JobQueue(db, { ...options, owner: probe(100, () => true, "other") });
    elsewhere.claim({ kind: "phase1", limit: 1 });
    db.prepare(
      "UPDATE jobs SET status = 'running', lease_owner = 'a-bare-uuid', lease_expires_at = ? WHERE key = 'c'",
    ).run(NOW + 60_000);
    const next = new JobQueue(db, { ...options, owner: probe(200, (pid) => pid === 100) });
    expect(next.claim({ kind: "phase1", limit: 3 })).toEqual([]);
    const leases = next.foreignLeases("phase1");
    expect(leases).toEqual({ held: 3, stopped: 0, nextExpiry: NOW + 60_000, lastExpiry: NOW + 300_000 });
    expect(describeForeignLeases(leases)).toBe(
      "3 sessions wait on leases of another cairn process (still running, or stopped without handing them back); they are retried after 2026-11-01T10:05:00.000Z",
    );
  });

  it("are reclaimed only from a holder that stopped, and reported as none when there are none", () => {
    const { db, options, crashed } = queues();
    const next = new JobQueue(db, { ...options, owner: probe(200, () => true) });
    expect(next.foreignLeases("phase1")).toEqual({ held: 0, stopped: 0, nextExpiry: null, lastExpiry: null });
    crashed.claim({ kind: "phase1", limit: 3 });
    expect(next.reclaimStopped("phase1")).toBe(0);
    expect(db.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'running'").get()).toEqual({ n: 3 });
  });

  it("are handed back by releaseHeld: pending at once, the attempt not spent", () => {
    const { db, crashed } = queues();
    const [first] = crashed.claim({ kind: "phase1", limit: 3 });
    crashed.succeed(first!);
    expect(crashed.releaseHeld()).toBe(2);
    const rows = db.prepare("SELECT key, status, attempts, lease_owner FROM jobs ORDER BY key").all();
    expect(rows).toEqual([
      { key: "a", status: "succeeded", attempts: 1, lease_owner: null },
      { key: "b", status: "pending", attempts: 0, lease_owner: null },
      { key: "c", status: "pending", attempts: 0, lease_owner: null },
    ]);
  });

  it("whose result could not be stored (full disk) are not failed: fail() rethrows the store error", () => {
    const { db, crashed } = queues();
    const [lease] = crashed.claim({ kind: "phase1", limit: 1 });
    const full = new BetterSqlite3.SqliteError("database or disk is full", "SQLITE_FULL");
    expect(() =>
      withWriteTx(db, () => {
        throw full;
      }),
    ).toThrow(full);
    expect(() => crashed.fail(lease!, "database or disk is full")).toThrow(full);
    expect(crashed.releaseHeld()).toBe(1);
    expect(crashed.get("phase1", lease!.key)).toMatchObject({ status: "pending", attempts: 0, lastError: null });
    // A genuine failure after that is recorded as usual.
    const [again] = crashed.claim({ kind: "phase1", limit: 1 });
    expect(crashed.fail(again!, "provider said no")).toBe("retry");
  });
});

describe("releaseOnSignal", () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it("hands back the leases on SIGTERM, says so on one line and exits 143", () => {
    const exit = vi.fn();
    const lines: string[] = [];
    stop = releaseOnSignal(() => 31, { exit, write: (line) => lines.push(line) });
    process.emit("SIGTERM", "SIGTERM");
    expect(exit).toHaveBeenCalledWith(143);
    expect(lines).toEqual(["cairn: stopped by SIGTERM; 31 leased jobs handed back for the next run\n"]);
  });
});

describe("a holder that stops spends attempts only of the jobs it had started", () => {
  // Six claimed, two started: the crash must cost those two an attempt and the other four nothing.
  function crashedHolder() {
    const { db } = openDatabase(":memory:");
    let now = NOW;
    const options = { clock: () => now, leaseMs: 300_000, maxAttempts: 3 };
    const holder = new JobQueue(db, { ...options, owner: probe(100, () => true) });
    for (const key of ["a", "b", "c", "d", "e", "f"]) holder.enqueue({ kind: "phase1", key });
    const leases = holder.claim({ kind: "phase1", limit: 6 });
    expect(holder.start(leases[0]!, leases[1]!)).toBe(2);
    const next = new JobQueue(db, { ...options, owner: probe(200, (pid) => pid !== 100) });
    const attempts = () =>
      Object.fromEntries(
        (
          db.prepare("SELECT key, attempts FROM jobs ORDER BY key").all() as Array<{ key: string; attempts: number }>
        ).map((row) => [row.key, row.attempts]),
      );
    return { db, holder, next, attempts, later: (ms: number) => (now += ms) };
  }

  it("when reclaimed from a stopped process (cairn run's start)", () => {
    const { next, attempts, db } = crashedHolder();
    expect(next.reclaimStopped("phase1")).toBe(6);
    expect(attempts()).toEqual({ a: 1, b: 1, c: 0, d: 0, e: 0, f: 0 });
    expect(db.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'pending'").get()).toEqual({ n: 6 });
  });

  it("when a claim takes the leases of a stopped process over", () => {
    const { next, attempts } = crashedHolder();
    const taken = next.claim({ kind: "phase1", limit: 6 });
    expect(taken.map((lease) => [lease.key, lease.attempts])).toEqual([
      ["a", 2],
      ["b", 2],
      ["c", 1],
      ["d", 1],
      ["e", 1],
      ["f", 1],
    ]);
    expect(attempts()).toEqual({ a: 2, b: 2, c: 1, d: 1, e: 1, f: 1 });
  });

  it("when its leases run out (a holder on another host, or hung)", () => {
    const { db, attempts, later } = crashedHolder();
    later(300_001);
    const elsewhere = new JobQueue(db, { clock: () => NOW + 300_001, owner: probe(100, () => true, "other") });
    expect(elsewhere.claim({ kind: "phase1", limit: 6 })).toHaveLength(6);
    expect(attempts()).toEqual({ a: 2, b: 2, c: 1, d: 1, e: 1, f: 1 });
  });

  it("so a job claimed behind others survives any number of crashes, and one that kills its holder still ends dead", () => {
    const { db } = openDatabase(":memory:");
    const options = { clock: () => NOW, leaseMs: 300_000, maxAttempts: 3 };
    for (const key of ["poison", "waiting"]) new JobQueue(db, options).enqueue({ kind: "phase1", key });
    for (let crash = 1; crash <= 10; crash += 1) {
      const holder = new JobQueue(db, { ...options, owner: probe(crash, () => true) });
      const leases = holder.claim({ kind: "phase1", limit: 2, keys: ["poison", "waiting"] });
      const poison = leases.find((lease) => lease.key === "poison");
      if (poison) holder.start(poison);
      // The holder dies; the next process (pid crash + 1000) sees it gone.
      new JobQueue(db, { ...options, owner: probe(crash + 1000, (pid) => pid > 1000) }).reclaimStopped("phase1");
    }
    const rows = db.prepare("SELECT key, status, attempts, last_error AS error FROM jobs ORDER BY key").all();
    expect(rows).toEqual([
      { key: "poison", status: "dead", attempts: 3, error: "its holder stopped too many times (worker crashed?)" },
      { key: "waiting", status: "pending", attempts: 0, error: null },
    ]);
  });

  it("does not mark a lease it no longer holds as started", () => {
    const { holder, next, db } = crashedHolder();
    const [, , third] = next.claim({ kind: "phase1", limit: 6 });
    expect(third?.key).toBe("c");
    const stale = { ...third!, token: "100@box/old" };
    expect(holder.start(stale)).toBe(0);
    expect(db.prepare("SELECT started_at AS s FROM jobs WHERE key = 'c'").get()).toEqual({ s: null });
  });
});
