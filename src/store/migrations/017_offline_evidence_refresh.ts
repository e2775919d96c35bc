import type { Migration } from "../migration.js";

/**
 * The offline extractor reads a command's outcome from more evidence now: a timeout, a panic, a
 * sandbox denial or a non-zero exit code anywhere in the output is a failure (a Codex sandbox run that
 * timed out had been a "Command that worked"), and a test's red step before the same command passes
 * is no longer a failure and its fix. The maintenance job of migration 014
 * (src/pipeline/phase1/offline/refreshCommandFacts.ts) reads the command facts the offline extractor
 * stored again by the current rules and writes those sessions' stage-1 outputs again; this step queues
 * it once more (a job that ran under 014 is set back to pending), for the ids up to the newest one now,
 * when the store holds such a fact. The job's kind and key and the facts' shapes are written out here,
 * frozen like the rest.
 */
export const offlineEvidenceRefresh: Migration = {
  version: 17,
  name: "offline_evidence_refresh",
  up(db) {
    db.exec(`
      INSERT INTO jobs (kind, key, status, payload, max_attempts, run_after, input_watermark, created_at, updated_at)
        SELECT 'maintenance', 'offline-command-facts', 'pending', json_object('upTo', max(m.id)), 5, 0, 0,
               CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000
        FROM memories m JOIN stage1_outputs s ON s.session_id = m.session_id
        WHERE m.deleted_at IS NULL AND m.who = 'fact-pipeline' AND s.generator = 'offline'
          AND (m.content LIKE 'Command that worked: \`%\`' OR m.content LIKE '\`%\` failed with %; \`%\` later succeeded.')
        HAVING count(*) > 0
      ON CONFLICT(kind, key) DO UPDATE SET
        status = 'pending', payload = excluded.payload, attempts = 0, run_after = 0, lease_owner = NULL,
        lease_expires_at = NULL, claimed_watermark = NULL, last_error = NULL, result = NULL,
        finished_at = NULL, started_at = NULL, updated_at = excluded.updated_at;
    `);
  },
};
