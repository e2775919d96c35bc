import { subjectKeys } from "../../text/subjectNames.js";
import type { Migration } from "../migration.js";

/**
 * The subject keys of each memory (src/text/subjectNames.ts: a code-like name it is about, joined with
 * the kind of statement it is), so that the revise job reads the few memories that may be the same fact
 * instead of a keyword query whose cost grew with the store. Written on every insert
 * (MemoryRepository.insert); the live memories of an older store are keyed here. A memory whose scope
 * moves takes its keys along; a deleted row takes them away. A change to what the keys are needs a
 * migration of its own that keys the store again.
 */
export const subjectKeysIndex: Migration = {
  version: 19,
  name: "subject_keys",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS memory_subjects (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        memory_id INTEGER NOT NULL,
        PRIMARY KEY (scope, key, memory_id)
      );
      CREATE INDEX IF NOT EXISTS idx_memory_subjects_memory ON memory_subjects(memory_id);
      DROP TRIGGER IF EXISTS memory_subjects_ad;
      DROP TRIGGER IF EXISTS memory_subjects_scope;
      CREATE TRIGGER memory_subjects_ad AFTER DELETE ON memories BEGIN
        DELETE FROM memory_subjects WHERE memory_id = old.id;
      END;
      CREATE TRIGGER memory_subjects_scope AFTER UPDATE OF scope ON memories WHEN new.scope IS NOT old.scope BEGIN
        UPDATE memory_subjects SET scope = new.scope WHERE memory_id = new.id;
      END;
    `);
    const insert = db.prepare("INSERT OR IGNORE INTO memory_subjects (scope, key, memory_id) VALUES (?, ?, ?)");
    // A page at a time: better-sqlite3 runs no other statement on a connection while one iterates, and a
    // page bounds what is held for a large store.
    const page = db.prepare(
      "SELECT id, scope, content FROM memories WHERE deleted_at IS NULL AND id > ? ORDER BY id LIMIT 1000",
    );
    for (let after = 0; ; ) {
      const rows = page.all(after) as Array<{ id: number; scope: string; content: string }>;
      if (rows.length === 0) break;
      for (const row of rows) for (const key of subjectKeys(row.content)) insert.run(row.scope, key, row.id);
      after = rows.at(-1)!.id;
    }
  },
};
