import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrate } from "../../src/store/migrate.js";
import { migrations } from "../../src/store/migrations/index.js";
import { AspectRepository } from "../../src/store/repositories/aspectRepository.js";

describe("migration 008 (structural)", () => {
  it("adds entity aspects and leaves a store's existing mentions waiting for classification, kinds kept", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 7));
    db.prepare(
      `INSERT INTO memories (id, content, normalized_content, content_hash, scope, created_at, updated_at)
       VALUES (1, 'we decided to use pnpm in Orion', 'x', 'h1', 'global', 1, 1)`,
    ).run();
    db.prepare(
      "INSERT INTO entities (id, name, canonical_name, entity_type, mentions, created_at, updated_at) VALUES (1, 'Orion', 'orion', 'extracted', 1, 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO memory_entity_mentions (memory_id, entity_id, mention_text, confidence, kind) VALUES (1, 1, 'Orion', 0.6, 'constraint')",
    ).run();
    migrate(db, migrations.slice(0, 8));
    expect(db.pragma("user_version", { simple: true })).toBe(8);
    expect(db.prepare("SELECT kind, aspect_id, classified_at FROM memory_entity_mentions").all()).toEqual([
      { kind: "constraint", aspect_id: null, classified_at: null },
    ]);
    expect(new AspectRepository(db).counts()).toEqual({ aspects: 0, classified: 0, waiting: 1 });
    const insert = db.prepare(
      "INSERT INTO entity_aspects (entity_id, name, canonical_name, created_at, updated_at) VALUES (1, 'Testing', 'testing', 1, 1)",
    );
    insert.run();
    expect(db.prepare("SELECT weight FROM entity_aspects").get()).toEqual({ weight: 1 });
    expect(() => insert.run()).toThrow(/UNIQUE/);
  });
});
