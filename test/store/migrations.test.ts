import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/connection.js";
import { migrate } from "../../src/store/migrate.js";
import { migrations } from "../../src/store/migrations/index.js";
import { tempDir } from "../helpers/tempDir.js";

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

  it("004 adds a concepts column, rebuilds the FTS index with it and leaves the backfill to a maintenance job", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 3));
    const insert = db.prepare(
      `INSERT INTO memories (content, normalized_content, content_hash, scope, session_id, item_from, deleted_at, created_at, updated_at)
       VALUES (?, ?, ?, 'conv', 'S1', ?, ?, 1, 1)`,
    );
    insert.run("We went swimming at the lake", "x", "h1", 1, null);
    insert.run("The fence needs paint", "y", "h2", 2, null);
    insert.run("Gone swimming again", "z", "h3", 3, 5);
    migrate(db, migrations.slice(0, 4));
    expect(db.pragma("user_version", { simple: true })).toBe(4);
    const terms = db.prepare("SELECT id, concept_terms AS t FROM memories ORDER BY id").all() as {
      id: number;
      t: string | null;
    }[];
    // SQL only: the concept words come from the job (test/store/conceptsBackfill.test.ts).
    expect(terms.map((t) => t.t)).toEqual([null, null, null]);
    expect(db.prepare("SELECT kind, key, status, payload FROM jobs").all()).toEqual([
      { kind: "maintenance", key: "concepts-backfill", status: "pending", payload: '{"upTo":2,"depth":2}' },
    ]);
    const match = (expr: string) =>
      (
        db.prepare("SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid").all(expr) as {
          id: number;
        }[]
      ).map((r) => r.id);
    expect(match("{body} : swimming")).toEqual([1]);
    expect(match("{before} : swimming")).toEqual([2]);
    // The rebuilt triggers index new rows with their concept words and refresh their neighbours.
    db.prepare(
      `INSERT INTO memories (content, normalized_content, content_hash, scope, session_id, item_from, concept_terms, created_at, updated_at)
       VALUES ('A new guitar', 'w', 'h4', 'conv', 'S1', 3, 'instrument', 1, 1)`,
    ).run();
    expect(match("{concepts} : instrument")).toEqual([4]);
    expect(match("{after} : guitar")).toEqual([2]);
    expect(db.prepare("SELECT doc FROM memories_fts_vocab WHERE term = 'instrument'").get()).toEqual({ doc: 1 });
  });

  it("004 enqueues no backfill for a store without memories", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 4));
    expect(db.prepare("SELECT count(*) AS n FROM jobs").get()).toEqual({ n: 0 });
  });

  it("005 indexes sessions by cwd and project key, and the remote lookup uses that index alone", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 5));
    const indexes = (db.prepare("PRAGMA index_list(sessions)").all() as Array<{ name: string }>).map((i) => i.name);
    expect(indexes).toContain("idx_sessions_cwd_project");
    expect(indexes).not.toContain("idx_sessions_cwd");
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT project_key FROM sessions WHERE cwd = ? AND project_key >= 'git:' AND project_key < 'git;' LIMIT 1",
      )
      .all("/w") as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail).join(" ")).toContain("COVERING INDEX idx_sessions_cwd_project");
  });

  it("006 indexes live memories by embedding model, so the tracker's questions read index ranges only", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 6));
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((s) => s.detail).join(" | ");
    const live = "FROM memories WHERE deleted_at IS NULL AND";
    for (const sql of [
      `SELECT id ${live} embedding_model IS NULL ORDER BY updated_at DESC LIMIT 8`,
      `SELECT id ${live} embedding_model < 'm' LIMIT 8`,
      `SELECT count(*) ${live} embedding_model > 'm'`,
    ]) {
      expect(plan(sql), sql).toMatch(
        /^SEARCH memories USING (COVERING )?INDEX idx_memories_embedding \(embedding_model[=<>]\?\)$/,
      );
    }
  });

  it("010 turns phase-1 facts' store-wide item ids into positions within their session", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 9));
    const session = db.prepare(
      "INSERT INTO sessions (id, agent, kind, started_at, updated_at, created_at) VALUES (?, 'codex', 'interactive', 1, 1, 1)",
    );
    const item = db.prepare("INSERT INTO items (session_id, seq, key, role, text) VALUES (?, ?, ?, 'user', 'x')");
    for (const id of ["s1", "s2", "s3"]) {
      session.run(id);
      for (let seq = 1; seq <= 4; seq++) item.run(id, seq, `k${seq}`);
    }
    // Items of s3 have the store-wide ids 9..12.
    const memory = db.prepare(
      `INSERT INTO memories (content, normalized_content, content_hash, scope, who, session_id, item_from, item_to, created_at, updated_at)
       VALUES (?, ?, ?, 'p', ?, ?, ?, ?, 1, 1)`,
    );
    memory.run("fact of s3", "a", "h1", "fact-pipeline", "s3", 10, 11);
    memory.run("fact citing a removed item", "b", "h2", "fact-pipeline", "s3", 99, 99);
    memory.run("remembered with positions", "c", "h3", "user", "s3", 2, 3);
    migrate(db, migrations);
    expect(db.prepare("SELECT item_from AS f, item_to AS t FROM memories ORDER BY id").all()).toEqual([
      { f: 2, t: 3 },
      { f: null, t: null },
      { f: 2, t: 3 },
    ]);
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
    const path = join(tempDir("cairn-db-"), "cairn.db");
    const raw = new BetterSqlite3(path);
    raw.pragma("user_version = 999");
    raw.close();
    expect(() => openDatabase(path)).toThrow(/newer cairn \(schema 999/);
    const after = new BetterSqlite3(path);
    expect(after.pragma("user_version", { simple: true })).toBe(999);
    after.close();
  });

  it("opens with WAL, foreign keys and a busy timeout", () => {
    const path = join(tempDir("cairn-db-"), "cairn.db");
    const { db } = openDatabase(path);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(db.pragma("busy_timeout", { simple: true })).toBeGreaterThanOrEqual(5000);
    db.close();
  });

  it("gives a clear error for a file that is not a database", async () => {
    const { writeFileSync } = await import("node:fs");
    const path = join(tempDir("cairn-db-"), "cairn.db");
    writeFileSync(path, "this is not sqlite ".repeat(100));
    expect(() => openDatabase(path)).toThrow(/cannot (open|prepare) the store at .*cairn\.db/);
  });
});
