import type { Migration } from "../migration.js";

/**
 * Facts of sessions with no known project now go to the `no-project` scope; earlier versions filed
 * them as global, where every project recalled them. Moving them needs a judgement SQL cannot make (a
 * user-wide preference stays global), so this step only queues the maintenance job that does it
 * (src/memory/moveProjectlessFacts.ts), for the ids up to the newest one now, when any such memory
 * exists. The job's kind, key and the fact pipeline's author are written out here, frozen like the rest.
 */
export const noProjectScope: Migration = {
  version: 13,
  name: "no_project_scope",
  up(db) {
    db.exec(`
      INSERT INTO jobs (kind, key, status, payload, max_attempts, run_after, input_watermark, created_at, updated_at)
        SELECT 'maintenance', 'no-project-scope', 'pending', json_object('upTo', max(id)), 5, 0, 0,
               CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000
        FROM memories
        WHERE scope = 'global' AND who = 'fact-pipeline' AND project IS NULL AND session_id IS NOT NULL
        HAVING count(*) > 0;
    `);
  },
};
