import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/connection.js";
import { migrate } from "../../src/db/migrate.js";
import { migrations } from "../../src/db/migrations/index.js";

function columns(db: BetterSqlite3.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
}

describe("migrations", () => {
  it("are numbered 1..n in order", () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
  });

  it("001 creates sessions with the collection-loop columns, items, source_files and jobs", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 1));
    expect(columns(db, "sessions")).toEqual(
      expect.arrayContaining(["invalidated_at", "processed_until", "project_key"]),
    );
    expect(columns(db, "items")).toEqual(expect.arrayContaining(["session_id", "seq", "key", "role", "text"]));
    expect(columns(db, "jobs")).toEqual(
      expect.arrayContaining(["lease_owner", "lease_expires_at", "input_watermark", "run_after", "attempts"]),
    );
    const indexes = (db.prepare("PRAGMA index_list(jobs)").all() as Array<{ name: string }>).map((i) => i.name);
    expect(indexes).toContain("idx_jobs_kind_status_run_after");
    expect(db.pragma("user_version", { simple: true })).toBe(1);
  });

  it("002 adds stage-1 outputs with the phase-2 baseline columns", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 2));
    expect(columns(db, "stage1_outputs")).toEqual(
      expect.arrayContaining([
        "source_updated_at",
        "raw_memory",
        "rollout_summary",
        "rollout_slug",
        "usage_count",
        "last_usage",
        "selected_for_phase2",
        "selected_for_phase2_source_updated_at",
      ]),
    );
    expect(columns(db, "phase2_selection")).toEqual(["workspace", "session_id", "source_updated_at"]);
  });

  it("is idempotent: a second run changes nothing", () => {
    const db = new BetterSqlite3(":memory:");
    const first = migrate(db, migrations);
    const second = migrate(db, migrations);
    expect(second).toEqual({ from: first.to, to: first.to });
  });

  it("continues from a partially migrated store", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 1));
    db.prepare(
      "INSERT INTO sessions (id, agent, kind, started_at, updated_at, created_at) VALUES ('s', 'codex', 'interactive', 1, 1, 1)",
    ).run();
    migrate(db, migrations);
    expect(db.prepare("SELECT id FROM sessions").all()).toEqual([{ id: "s" }]);
  });

  it("refuses a store written by a newer version without touching it", () => {
    const path = join(mkdtempSync(join(tmpdir(), "cairn-db-")), "cairn.db");
    const raw = new BetterSqlite3(path);
    raw.pragma("user_version = 999");
    raw.close();
    expect(() => openDatabase(path)).toThrow(/newer cairn \(schema 999/);
    const after = new BetterSqlite3(path);
    expect(after.pragma("user_version", { simple: true })).toBe(999);
    after.close();
  });

  it("opens with WAL, foreign keys and a busy timeout", () => {
    const path = join(mkdtempSync(join(tmpdir(), "cairn-db-")), "cairn.db");
    const { db } = openDatabase(path);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(db.pragma("busy_timeout", { simple: true })).toBeGreaterThanOrEqual(5000);
    db.close();
  });

  it("gives a clear error for a file that is not a database", async () => {
    const { writeFileSync } = await import("node:fs");
    const path = join(mkdtempSync(join(tmpdir(), "cairn-db-")), "cairn.db");
    writeFileSync(path, "this is not sqlite ".repeat(100));
    expect(() => openDatabase(path)).toThrow(/cannot (open|prepare) the store at .*cairn\.db/);
  });
});
