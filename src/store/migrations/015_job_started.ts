import type { Migration } from "../migration.js";

/**
 * A claimed job now records when its work began (`started_at`, set by `JobQueue.start`). A holder that
 * stops before that spent nothing: its jobs go back with their attempts unchanged, so a crash costs
 * an attempt only of the jobs it was working on, not of every job it had claimed ahead. Jobs running
 * at upgrade time were claimed by an older cairn that never marks a start: they count as started,
 * as they did then.
 */
export const jobStarted: Migration = {
  version: 15,
  name: "job_started",
  up(db) {
    // Idempotent: a store whose version was set back (a restore, a test of an upgrade) has the column.
    const has = db.prepare("SELECT 1 FROM pragma_table_info('jobs') WHERE name = 'started_at'").get();
    if (has) return;
    db.exec(`
      ALTER TABLE jobs ADD COLUMN started_at INTEGER;
      UPDATE jobs SET started_at = updated_at WHERE status = 'running';
    `);
  },
};
