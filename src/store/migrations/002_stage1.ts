import type { Migration } from "../migration.js";

/** Stage-1 outputs (phase 1), the last phase-2 selection per workspace, and daily token usage. */
export const stage1: Migration = {
  version: 2,
  name: "stage1",
  up(db) {
    db.exec(`
      CREATE TABLE stage1_outputs (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        project_key TEXT,
        cwd TEXT,
        agent TEXT,
        source_updated_at INTEGER NOT NULL,
        item_from INTEGER,
        item_to INTEGER,
        raw_memory TEXT NOT NULL,
        rollout_summary TEXT NOT NULL,
        rollout_slug TEXT,
        facts TEXT NOT NULL DEFAULT '[]',
        entities TEXT NOT NULL DEFAULT '[]',
        facts_ingested_at INTEGER,
        generator TEXT NOT NULL,
        generated_at INTEGER NOT NULL,
        usage_count INTEGER NOT NULL DEFAULT 0,
        last_usage INTEGER,
        selected_for_phase2 INTEGER NOT NULL DEFAULT 0,
        selected_for_phase2_source_updated_at INTEGER
      );
      CREATE INDEX idx_stage1_project ON stage1_outputs(project_key);

      CREATE TABLE phase2_selection (
        workspace TEXT NOT NULL,
        session_id TEXT NOT NULL,
        source_updated_at INTEGER NOT NULL,
        PRIMARY KEY (workspace, session_id)
      );

      CREATE TABLE token_usage (
        day TEXT PRIMARY KEY,
        tokens_in INTEGER NOT NULL DEFAULT 0,
        tokens_out INTEGER NOT NULL DEFAULT 0,
        calls INTEGER NOT NULL DEFAULT 0
      );
    `);
  },
};
