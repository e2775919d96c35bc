import type { Migration } from "../migration.js";

/**
 * Session checkpoints (seed 004, "Session Checkpoints"): what cairn could tell of a session at a moment
 * (a compaction, its end, a period), kept a few days so the next session after a `/compact` or a
 * `/clear` resumes from it without waiting for phase 1. `prompt_count` is the prompts this checkpoint
 * covers (since the session's previous one), so two merged checkpoints sum; `prompt_total` the session's
 * prompts seen so far. Lists are JSON arrays. Rows are hard-deleted by the continuity worker's pruning and
 * the per-session cap; nothing else refers to them.
 */
export const sessionCheckpoints: Migration = {
  version: 21,
  name: "session_checkpoints",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS session_checkpoints (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_key TEXT NOT NULL,
        agent TEXT NOT NULL,
        project_key TEXT,
        cwd TEXT,
        trigger TEXT NOT NULL,
        digest TEXT NOT NULL,
        prompt_count INTEGER NOT NULL DEFAULT 0,
        prompt_total INTEGER NOT NULL DEFAULT 0,
        memory_queries TEXT NOT NULL DEFAULT '[]',
        recent_remembers TEXT NOT NULL DEFAULT '[]',
        state TEXT NOT NULL DEFAULT '{}',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS idx_session_checkpoints_session ON session_checkpoints(session_key, created_at);
      CREATE INDEX IF NOT EXISTS idx_session_checkpoints_project ON session_checkpoints(project_key, created_at);
      CREATE INDEX IF NOT EXISTS idx_session_checkpoints_created ON session_checkpoints(created_at);
    `);
  },
};
