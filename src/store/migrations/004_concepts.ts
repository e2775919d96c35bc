import type { Migration } from "../migration.js";

/** Live memories `n` of the same scope and session as `m`, `offset` items after it (-1: the one before). */
const at = (m: string, offset: string) =>
  `n.scope = ${m}.scope AND n.session_id = ${m}.session_id AND n.deleted_at IS NULL AND n.id != ${m}.id
   AND n.item_from = ${m}.item_from ${offset}`;

/** Memories whose before/after text includes `m`'s: the items just before and after it. */
const besideOf = (m: string) => `(${at(m, "- 1")}) OR (${at(m, "+ 1")})`;

const textAt = (m: string, offset: string) =>
  `(SELECT group_concat(n.content, ' ') FROM memories n WHERE ${at(m, offset)})`;

/** The calendar tokens of the day memory `m` was said, as in migration 003. */
const occurredTerms = (m: string) => {
  const f = (format: string) => `strftime('${format}', ${m}.occurred_at / 1000, 'unixepoch')`;
  return `CASE WHEN ${m}.occurred_at IS NULL THEN NULL ELSE
    'd' || ${f("%Y%m%d")} || ' dm' || ${f("%m%d")} || ' m' || ${f("%Y%m")} || ' mo' || ${f("%m")} || ' y' || ${f("%Y")} END`;
};

/** The FTS row of memory `m`: migration 003's columns plus its concept words. */
const ftsRow = (m: string) =>
  `${m}.id, ${m}.content, ${textAt(m, "- 1")}, ${textAt(m, "+ 1")}, ${occurredTerms(m)}, ${m}.time_terms, ${m}.concept_terms, 's' || hex(${m}.scope)`;

const FTS_COLUMNS = "rowid, body, before, after, occurred, mentioned, concepts, scope_tag";

const refreshNeighbours = (m: string) => `
  DELETE FROM memories_fts WHERE rowid IN (SELECT n.id FROM memories n WHERE ${besideOf(m)});
  INSERT INTO memories_fts(${FTS_COLUMNS})
    SELECT ${ftsRow("x")} FROM memories x WHERE x.id IN (SELECT n.id FROM memories n WHERE ${besideOf(m)});`;

const ftsTriggers = `
  CREATE TRIGGER memories_ai AFTER INSERT ON memories WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO memories_fts(${FTS_COLUMNS}) VALUES (${ftsRow("new")});
  END;
  CREATE TRIGGER memories_ai_context AFTER INSERT ON memories
  WHEN new.deleted_at IS NULL AND new.session_id IS NOT NULL AND new.item_from IS NOT NULL BEGIN
    ${refreshNeighbours("new")}
  END;
  CREATE TRIGGER memories_ad AFTER DELETE ON memories WHEN old.deleted_at IS NULL BEGIN
    DELETE FROM memories_fts WHERE rowid = old.id;
  END;
  CREATE TRIGGER memories_ad_context AFTER DELETE ON memories
  WHEN old.deleted_at IS NULL AND old.session_id IS NOT NULL AND old.item_from IS NOT NULL BEGIN
    ${refreshNeighbours("old")}
  END;
  CREATE TRIGGER memories_au AFTER UPDATE OF content, scope, deleted_at, session_id, item_from, occurred_at, time_terms, concept_terms ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.id AND old.deleted_at IS NULL;
    INSERT INTO memories_fts(${FTS_COLUMNS}) SELECT ${ftsRow("new")} WHERE new.deleted_at IS NULL;
  END;
  CREATE TRIGGER memories_au_context AFTER UPDATE OF content, scope, deleted_at, session_id, item_from ON memories
  WHEN old.session_id IS NOT NULL OR new.session_id IS NOT NULL BEGIN
    ${refreshNeighbours("old")}
    ${refreshNeighbours("new")}
  END;`;

/**
 * Concept indexing: `memories.concept_terms` holds the category words of a memory's nouns (from the
 * shipped WordNet lexicon, src/text/lexicon/), indexed in a new low-weight `concepts` column of
 * memories_fts, so "what activities ..." finds "went swimming". FTS5 cannot add a column: the index and
 * its triggers are rebuilt. The migration is SQL only: the concept words of the memories already stored
 * are computed by a maintenance job (src/memory/runMaintenanceJobs.ts) that this step enqueues when
 * there are any, for the ids up to the newest one now, at depth 2 (the default of
 * `recall.conceptIndex.depth`). The job's kind and key are written out here, frozen like the rest.
 */
export const concepts: Migration = {
  version: 4,
  name: "concepts",
  up(db) {
    db.exec(`
      ALTER TABLE memories ADD COLUMN concept_terms TEXT;
      DROP TRIGGER memories_ai; DROP TRIGGER memories_ai_context; DROP TRIGGER memories_ad;
      DROP TRIGGER memories_ad_context; DROP TRIGGER memories_au; DROP TRIGGER memories_au_context;
      DROP TABLE memories_fts_vocab;
      DROP TABLE memories_fts;
      CREATE VIRTUAL TABLE memories_fts USING fts5(
        body, before, after, occurred, mentioned, concepts, scope_tag, content='', contentless_delete=1,
        tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE memories_fts_vocab USING fts5vocab(memories_fts, 'row');
      ${ftsTriggers}
      INSERT INTO memories_fts(${FTS_COLUMNS}) SELECT ${ftsRow("x")} FROM memories x WHERE x.deleted_at IS NULL;
      INSERT INTO jobs (kind, key, status, payload, max_attempts, run_after, input_watermark, created_at, updated_at)
        SELECT 'maintenance', 'concepts-backfill', 'pending', json_object('upTo', max(id), 'depth', 2), 5, 0, 0,
               CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000
        FROM memories WHERE deleted_at IS NULL HAVING count(*) > 0;
    `);
  },
};
