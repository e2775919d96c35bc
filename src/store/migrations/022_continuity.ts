import type { Migration } from "../migration.js";

/**
 * Continuity scoring (seed 004): which remembered memories a session was given at its start, in the
 * order it saw them, and how much each was used (`relevance`, 0 to 1, null until scored); and the
 * session's score. Memories and sessions may be deleted later: rows of a purged memory go with it.
 * Idempotent, as every migration since 019: a store marked older than it is runs it again.
 */
export const continuity: Migration = {
  version: 22,
  name: "continuity",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS session_injections (
        session_id TEXT NOT NULL,
        memory_id INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        injected_at INTEGER NOT NULL,
        relevance REAL,
        PRIMARY KEY (session_id, memory_id)
      );
      CREATE INDEX IF NOT EXISTS idx_session_injections_memory ON session_injections(memory_id) WHERE relevance IS NOT NULL;
      CREATE TABLE IF NOT EXISTS session_scores (
        session_id TEXT PRIMARY KEY,
        score REAL NOT NULL,
        confidence REAL NOT NULL,
        method TEXT NOT NULL,
        injected INTEGER NOT NULL,
        used INTEGER NOT NULL,
        reasoning TEXT,
        scored_at INTEGER NOT NULL
      );
      DROP TRIGGER IF EXISTS session_injections_memory_ad;
      CREATE TRIGGER session_injections_memory_ad AFTER DELETE ON memories BEGIN
        DELETE FROM session_injections WHERE memory_id = old.id;
      END;
    `);
  },
};
