import type { Migration } from "../migration.js";

/**
 * Sessions by cwd and project key together: a new session asks whether another one of its cwd
 * recorded a git remote (`knownRemoteKey`), and with only a cwd index that visited every session of
 * the cwd, hundreds for a busy project on every import. The pair answers from the index alone, and
 * still serves every lookup by cwd.
 */
export const cwdProjectIndex: Migration = {
  version: 5,
  name: "cwd_project_index",
  up(db) {
    db.exec(`
      DROP INDEX idx_sessions_cwd;
      CREATE INDEX idx_sessions_cwd_project ON sessions(cwd, project_key);
    `);
  },
};
