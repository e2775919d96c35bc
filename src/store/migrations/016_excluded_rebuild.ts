import type { Migration } from "../migration.js";

/**
 * Earlier versions erased what a session excluded after the fact had taught, then consolidated the
 * workspaces incrementally: a model was handed the previous MEMORY.md and summary, still quoting the
 * session, and kept them. A store that has excluded sessions and consolidated workspaces marks every
 * one of them (global included) to be built again from nothing by the next phase 2, as an erase marks
 * the workspaces it touches now (meta `phase2.rebuild`, merged with any marks already there). The
 * exclusion mark and the meta keys are written out here, frozen like the rest.
 */
export const excludedRebuild: Migration = {
  version: 16,
  name: "excluded_rebuild",
  up(db) {
    db.exec(`
      INSERT INTO meta (key, value)
        SELECT 'phase2.rebuild', json_group_array(key) FROM (
          SELECT 'global' AS key
          UNION SELECT DISTINCT workspace FROM phase2_selection
          UNION SELECT value FROM json_each(coalesce((SELECT value FROM meta WHERE key = 'phase2.rebuild'), '[]'))
          ORDER BY 1
        )
        WHERE EXISTS (SELECT 1 FROM sessions WHERE content_hash = 'excluded')
          AND EXISTS (SELECT 1 FROM phase2_selection)
        HAVING count(*) > 0
      ON CONFLICT(key) DO UPDATE SET value = excluded.value;
    `);
  },
};
