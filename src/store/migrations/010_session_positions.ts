import type { Migration } from "../migration.js";

/**
 * A memory's provenance `item_from`/`item_to` is a position within its session (`items.seq`), the
 * numbering the remember API takes and recall's `expand` reads. Facts the phase-1 pipeline wrote
 * before this step hold store-wide item ids instead: they are converted to their items' positions in
 * the memory's own session. An id that is not an item of that session (removed since) leaves the
 * range unknown (NULL) rather than pointing at other items.
 */
export const sessionPositions: Migration = {
  version: 10,
  name: "session_positions",
  up(db) {
    db.exec(`
      UPDATE memories SET
        item_from = (SELECT i.seq FROM items i WHERE i.id = memories.item_from AND i.session_id = memories.session_id),
        item_to = (SELECT i.seq FROM items i WHERE i.id = memories.item_to AND i.session_id = memories.session_id)
      WHERE who = 'fact-pipeline' AND session_id IS NOT NULL AND item_from IS NOT NULL;
      UPDATE memories SET item_to = NULL WHERE item_from IS NULL AND item_to IS NOT NULL AND who = 'fact-pipeline';
    `);
  },
};
