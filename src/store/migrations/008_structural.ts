import type { Migration } from "../migration.js";

/**
 * Structural classification (seed 004): each entity gets named aspects (its "deployment", its
 * "testing"), and each memory's mention of an entity says which aspect it describes and whether it is
 * an attribute or a constraint.
 * - `weight` starts at 1 and moves with recall feedback (confirmed aspects gain, stale ones decay);
 *   `confirmed_at` and `decayed_at` date the last of each so decay is paced by time, not by how often
 *   the cycle runs.
 * - `classified_at` on a mention is null until the classifier (or nothing, offline) has looked at it:
 *   the partial index keeps "what is waiting" cheap however large the graph grows.
 */
export const structural: Migration = {
  version: 8,
  name: "structural",
  up(db) {
    db.exec(`
      CREATE TABLE entity_aspects (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        canonical_name TEXT NOT NULL,
        weight REAL NOT NULL DEFAULT 1.0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        confirmed_at INTEGER,
        decayed_at INTEGER,
        UNIQUE(entity_id, canonical_name)
      );

      ALTER TABLE memory_entity_mentions ADD COLUMN aspect_id INTEGER REFERENCES entity_aspects(id) ON DELETE SET NULL;
      ALTER TABLE memory_entity_mentions ADD COLUMN classified_at INTEGER;
      CREATE INDEX idx_mentions_aspect ON memory_entity_mentions(aspect_id) WHERE aspect_id IS NOT NULL;
      CREATE INDEX idx_mentions_unclassified ON memory_entity_mentions(entity_id) WHERE classified_at IS NULL;
    `);
  },
};
