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

/** The FTS row of memory `m`: migration 004's columns plus its search terms, last. */
const ftsRow = (m: string) =>
  `${m}.id, ${m}.content, ${textAt(m, "- 1")}, ${textAt(m, "+ 1")}, ${occurredTerms(m)}, ${m}.time_terms, ${m}.concept_terms, 's' || hex(${m}.scope), ${m}.search_terms`;

const FTS_COLUMNS = "rowid, body, before, after, occurred, mentioned, concepts, scope_tag, terms";

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
  CREATE TRIGGER memories_au AFTER UPDATE OF content, scope, deleted_at, session_id, item_from, occurred_at, time_terms, concept_terms, search_terms ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.id AND old.deleted_at IS NULL;
    INSERT INTO memories_fts(${FTS_COLUMNS}) SELECT ${ftsRow("new")} WHERE new.deleted_at IS NULL;
  END;
  CREATE TRIGGER memories_au_context AFTER UPDATE OF content, scope, deleted_at, session_id, item_from ON memories
  WHEN old.session_id IS NOT NULL OR new.session_id IS NOT NULL BEGIN
    ${refreshNeighbours("old")}
    ${refreshNeighbours("new")}
  END;`;

/**
 * Search terms: `memories.search_terms` holds the words a model, at extraction time, said the memory
 * should be found by although its text does not contain them (aliases, abbreviations and their
 * expansions, the general category, other names of a tool), space-separated. They are indexed in their
 * own `terms` column of memories_fts, weighted below the text at recall. The column goes last, so the
 * positional bm25() weights of the columns before it keep their places. FTS5 cannot add a column: the
 * index and its triggers are rebuilt from the rows. Memories stored before this step have no terms.
 */
export const searchTerms: Migration = {
  version: 11,
  name: "search_terms",
  up(db) {
    db.exec(`
      ALTER TABLE memories ADD COLUMN search_terms TEXT;
      DROP TRIGGER memories_ai; DROP TRIGGER memories_ai_context; DROP TRIGGER memories_ad;
      DROP TRIGGER memories_ad_context; DROP TRIGGER memories_au; DROP TRIGGER memories_au_context;
      DROP TABLE memories_fts_vocab;
      DROP TABLE memories_fts;
      CREATE VIRTUAL TABLE memories_fts USING fts5(
        body, before, after, occurred, mentioned, concepts, scope_tag, terms, content='', contentless_delete=1,
        tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE memories_fts_vocab USING fts5vocab(memories_fts, 'row');
      ${ftsTriggers}
      INSERT INTO memories_fts(${FTS_COLUMNS}) SELECT ${ftsRow("x")} FROM memories x WHERE x.deleted_at IS NULL;
    `);
  },
};
