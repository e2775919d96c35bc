import type { Migration } from "../migration.js";

/**
 * The raw conversation behind memories pushed with `remember` (seed 004's lossless transcripts):
 * extraction makes the search surface, the whole text is kept beside it. One row per session key,
 * written once (INSERT OR IGNORE), redacted like every text of the store.
 */
export const sessionTranscripts: Migration = {
  version: 9,
  name: "session_transcripts",
  up(db) {
    db.exec(`
      CREATE TABLE session_transcripts (
        session_key TEXT PRIMARY KEY,
        content TEXT NOT NULL,
        project TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX idx_session_transcripts_project ON session_transcripts(project, created_at);
    `);
  },
};
