import type { Migration } from "../migration.js";

/**
 * What keeps memory true over time (issue 17).
 * - A superseded memory is a tombstone that says what replaced it and when: it leaves the search
 *   indexes like any tombstone (the existing triggers key on deleted_at), stays in the table and the
 *   history, and `recall --include-superseded` shows it beside its successor.
 * - memory_reviews holds what a detector (or the user) flagged for a person to decide: keep, supersede
 *   or forget. `memory_id` is the stored memory the flag is about; `related_id` the memory it conflicts
 *   with when one was written; `proposed_content` the fact that was not applied (shadow mode, blocked).
 */
export const lifecycle: Migration = {
  version: 7,
  name: "lifecycle",
  up(db) {
    db.exec(`
      ALTER TABLE memories ADD COLUMN superseded_by INTEGER;
      ALTER TABLE memories ADD COLUMN superseded_at INTEGER;
      CREATE INDEX idx_memories_superseded_by ON memories(superseded_by) WHERE superseded_by IS NOT NULL;

      CREATE TABLE memory_reviews (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id INTEGER NOT NULL,
        related_id INTEGER,
        proposed_content TEXT,
        reason TEXT NOT NULL,
        detector TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        resolved_at INTEGER,
        resolution TEXT
      );
      CREATE INDEX idx_memory_reviews_open ON memory_reviews(resolved_at, id);
      CREATE INDEX idx_memory_reviews_memory ON memory_reviews(memory_id);
    `);
  },
};
