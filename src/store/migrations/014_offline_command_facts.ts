import type { Migration } from "../migration.js";

/**
 * The offline extractor reads a command's outcome by stricter rules now (a pipe's exit status is the
 * filter's, Codex's still-running commands get their end event, programs that only look say
 * nothing, release commands are no tips). The command facts it stored before are read again from
 * their sessions by a maintenance job (src/pipeline/phase1/offline/refreshCommandFacts.ts), which this
 * step queues, for the ids up to the newest one now, when the store holds any such fact of a session
 * the offline extractor read. The job's kind and key, the fact pipeline's author and the facts' shapes
 * are written out here, frozen like the rest.
 */
export const offlineCommandFacts: Migration = {
  version: 14,
  name: "offline_command_facts",
  up(db) {
    db.exec(`
      INSERT INTO jobs (kind, key, status, payload, max_attempts, run_after, input_watermark, created_at, updated_at)
        SELECT 'maintenance', 'offline-command-facts', 'pending', json_object('upTo', max(m.id)), 5, 0, 0,
               CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000
        FROM memories m JOIN stage1_outputs s ON s.session_id = m.session_id
        WHERE m.deleted_at IS NULL AND m.who = 'fact-pipeline' AND s.generator = 'offline'
          AND (m.content LIKE 'Command that worked: \`%\`' OR m.content LIKE '\`%\` failed with %; \`%\` later succeeded.')
        HAVING count(*) > 0;
    `);
  },
};
