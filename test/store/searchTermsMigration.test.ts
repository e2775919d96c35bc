import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrate } from "../../src/store/migrate.js";
import { migrations } from "../../src/store/migrations/index.js";

describe("migration 011 (search terms)", () => {
  it("adds search_terms, rebuilds the FTS index with a terms column last, and its triggers keep it in sync", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 10));
    const insert = db.prepare(
      `INSERT INTO memories (content, normalized_content, content_hash, scope, deleted_at, created_at, updated_at)
       VALUES (?, ?, ?, 'global', ?, 1, 1)`,
    );
    insert.run("Run pnpm lint before committing", "x", "h1", null);
    insert.run("Old note about lint", "y", "h2", 5);
    migrate(db, migrations.slice(0, 11));
    expect(db.pragma("user_version", { simple: true })).toBe(11);
    const match = (expr: string) =>
      (
        db.prepare("SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid").all(expr) as {
          id: number;
        }[]
      ).map((r) => r.id);
    // Live rows are re-indexed with their text; tombstones stay out.
    expect(match("{body} : lint")).toEqual([1]);
    const columns = (db.prepare("SELECT * FROM memories_fts LIMIT 0").columns() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns.at(-1)).toBe("terms");
    expect(columns.indexOf("scope_tag")).toBe(columns.length - 2);

    db.prepare(
      `INSERT INTO memories (content, normalized_content, content_hash, scope, search_terms, created_at, updated_at)
       VALUES ('Deploys go through staging', 'z', 'h3', 'global', 'kubernetes k8s', 1, 1)`,
    ).run();
    expect(match("{terms} : kubernetes")).toEqual([3]);
    expect(match("{body} : kubernetes")).toEqual([]);
    db.prepare("UPDATE memories SET search_terms = 'linter eslint' WHERE id = 1").run();
    expect(match("{terms} : eslint")).toEqual([1]);
    db.prepare("UPDATE memories SET deleted_at = 9 WHERE id = 3").run();
    expect(match("{terms} : kubernetes")).toEqual([]);
  });
});
