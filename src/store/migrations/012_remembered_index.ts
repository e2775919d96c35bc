import type { Migration } from "../migration.js";

/**
 * A scope's live remembered memories, newest first: what a session's start hook lists. Without it the
 * hook read every live memory of the scope to find the few a user remembered (56 ms at 200,000
 * extracted facts in one project, on every session start); with it the answer costs its length. The
 * fact pipeline's author is spelled out because SQLite uses a partial index only for queries that
 * state its condition (`FACT_PIPELINE_WHO` in src/store/contracts/memories.ts).
 */
export const rememberedIndex: Migration = {
  version: 12,
  name: "remembered_index",
  up(db) {
    db.exec(`
      CREATE INDEX idx_memories_remembered ON memories(scope, coalesce(occurred_at, created_at) DESC, id DESC)
        WHERE deleted_at IS NULL AND who IS NOT 'fact-pipeline';
    `);
  },
};
