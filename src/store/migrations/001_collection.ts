import type { Migration } from "../migration.js";

/** Sessions, their items, per-file scan state, the job queue and a small key/value table. */
export const collection: Migration = {
  version: 1,
  name: "collection",
  up(db) {
    db.exec(`
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        agent TEXT NOT NULL,
        kind TEXT NOT NULL,
        cwd TEXT,
        project_key TEXT,
        git_branch TEXT,
        git_commit TEXT,
        git_remote TEXT,
        title TEXT,
        parent_id TEXT,
        source_path TEXT,
        started_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        ended_at INTEGER,
        content_hash TEXT,
        invalidated_at INTEGER,
        processed_until INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX idx_sessions_invalidated_at ON sessions(invalidated_at);
      CREATE INDEX idx_sessions_updated_at ON sessions(updated_at);
      CREATE INDEX idx_sessions_project ON sessions(project_key);
      CREATE INDEX idx_sessions_cwd ON sessions(cwd);

      CREATE TABLE items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        key TEXT NOT NULL,
        role TEXT NOT NULL,
        text TEXT NOT NULL,
        tool TEXT,
        call_id TEXT,
        is_error INTEGER NOT NULL DEFAULT 0,
        ts INTEGER,
        origin_file TEXT,
        origin_line INTEGER,
        UNIQUE(session_id, key)
      );

      CREATE TABLE source_files (
        path TEXT PRIMARY KEY,
        agent TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        offset INTEGER NOT NULL,
        line INTEGER NOT NULL,
        tail_hash TEXT,
        resume_state TEXT,
        session_ids TEXT NOT NULL DEFAULT '[]',
        problems INTEGER NOT NULL DEFAULT 0,
        scanned_at INTEGER NOT NULL
      );

      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        status TEXT NOT NULL,
        payload TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        run_after INTEGER NOT NULL,
        lease_owner TEXT,
        lease_expires_at INTEGER,
        input_watermark INTEGER NOT NULL DEFAULT 0,
        claimed_watermark INTEGER,
        last_error TEXT,
        result TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        finished_at INTEGER,
        UNIQUE(kind, key)
      );
      CREATE INDEX idx_jobs_kind_status_run_after ON jobs(kind, status, run_after);

      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `);
  },
};
