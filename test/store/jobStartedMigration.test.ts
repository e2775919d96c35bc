import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrate } from "../../src/store/migrate.js";
import { migrations } from "../../src/store/migrations/index.js";
import { JobQueue } from "../../src/store/queue/jobQueue.js";

describe("migration 015 (job started)", () => {
  it("adds started_at; jobs running at upgrade count as started, as an older cairn counted them", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 14));
    const insert = db.prepare(
      `INSERT INTO jobs (kind, key, status, attempts, max_attempts, run_after, lease_owner, lease_expires_at, input_watermark, created_at, updated_at)
       VALUES ('phase1', ?, ?, ?, 5, 0, ?, ?, 0, 1, ?)`,
    );
    insert.run("held", "running", 5, "100@box/a", Date.now() + 60_000, 7);
    insert.run("waiting", "pending", 0, null, null, 8);
    migrate(db, migrations.slice(0, 15));
    expect(db.pragma("user_version", { simple: true })).toBe(15);
    expect(db.prepare("SELECT key, started_at AS started FROM jobs ORDER BY key").all()).toEqual([
      { key: "held", started: 7 },
      { key: "waiting", started: null },
    ]);
    // Idempotent: run again on a store whose version was set back, it changes nothing.
    db.pragma("user_version = 14");
    expect(migrate(db, migrations.slice(0, 15))).toEqual({ from: 14, to: 15 });
    expect(db.prepare("SELECT count(*) AS n FROM jobs WHERE started_at IS NOT NULL").get()).toEqual({ n: 1 });
    // The held job's holder stopped: as before the upgrade, its attempts are used up and it goes dead.
    const queue = new JobQueue(db, { owner: { host: "box", pid: 200, isAlive: () => false } });
    expect(queue.reclaimStopped("phase1")).toBe(1);
    expect(queue.get("phase1", "held")?.status).toBe("dead");
  });
});
