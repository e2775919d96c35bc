import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrate } from "../../src/store/migrate.js";
import { migrations } from "../../src/store/migrations/index.js";
import { MetaRepository } from "../../src/store/repositories/metaRepository.js";
import { Phase2State } from "../../src/store/repositories/phase2State.js";

/** A store at schema 15 with two consolidated workspaces, one of its sessions excluded or not. */
function storeAt15(options: { excluded: boolean }) {
  const db = new BetterSqlite3(":memory:");
  migrate(db, migrations.slice(0, 15));
  const session = db.prepare(
    "INSERT INTO sessions (id, agent, kind, cwd, project_key, started_at, updated_at, content_hash, created_at) VALUES (?, 'codex', 'main', ?, ?, 1, 1, ?, 1)",
  );
  session.run("client-1", "/p/client", "path:/p/client", options.excluded ? "excluded" : null);
  session.run("shop-1", "/p/shop", "path:/p/shop", null);
  const select = db.prepare("INSERT INTO phase2_selection (workspace, session_id, source_updated_at) VALUES (?, ?, 1)");
  select.run("global", "shop-1");
  select.run("path:/p/shop", "shop-1");
  return { db, phase2: new Phase2State(new MetaRepository(db)) };
}

describe("migration 016 (rebuild after an earlier exclusion)", () => {
  it("marks every consolidated workspace to be built from nothing when the store has excluded sessions", () => {
    const { db, phase2 } = storeAt15({ excluded: true });
    phase2.requestRebuild(["path:/p/gone"]);
    migrate(db, migrations.slice(0, 16));
    expect(phase2.rebuildRequested()).toEqual(["global", "path:/p/gone", "path:/p/shop"]);
    // Idempotent: run again on a store whose version was set back, it adds nothing twice.
    db.pragma("user_version = 15");
    migrate(db, migrations.slice(0, 16));
    expect(phase2.rebuildRequested()).toEqual(["global", "path:/p/gone", "path:/p/shop"]);
  });

  it("marks nothing in a store without excluded sessions", () => {
    const { db, phase2 } = storeAt15({ excluded: false });
    migrate(db, migrations.slice(0, 16));
    expect(phase2.rebuildRequested()).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM meta WHERE key = 'phase2.rebuild'").get()).toEqual({ n: 0 });
  });
});
