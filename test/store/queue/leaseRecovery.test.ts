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
