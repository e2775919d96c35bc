import type { Migration } from "../migration.js";

/**
 * Whether the store indexes each memory with its session neighbours' text (contextual indexing): on
 * unless meta `index.neighbour_text` is '0'. The recall profile decides (`recall.contextIndex`; src/store/
 * repositories/searchRepository.ts writes the key and re-indexes when it changes). A column left out
 * of a search still counts in FTS5's document length, so a profile that does not search the
 * neighbours' text must not index it either.
 */
const neighbourText = "coalesce((SELECT value FROM meta WHERE key = 'index.neighbour_text'), '1') = '1'";

/** Live memories `n` of the same scope and session as `m`, `offset` items after it (-1: the one before). */
const at = (m: string, offset: string) =>
  `n.scope = ${m}.scope AND n.session_id = ${m}.session_id AND n.deleted_at IS NULL AND n.id != ${m}.id
   AND n.item_from = ${m}.item_from ${offset}`;

/** Memories whose before/after text includes `m`'s: the items just before and after it. */
const besideOf = (m: string) => `(${at(m, "- 1")}) OR (${at(m, "+ 1")})`;

/** The neighbour's text, or NULL while the store does not index neighbours' text. */
const textAt = (m: string, offset: string) =>
  `CASE WHEN ${neighbourText} THEN (SELECT group_concat(n.content, ' ') FROM memories n WHERE ${at(m, offset)}) END`;

/** The calendar tokens of the day memory `m` was said, as in migration 003. */
const occurredTerms = (m: string) => {
  const f = (format: string) => `strftime('${format}', ${m}.occurred_at / 1000, 'unixepoch')`;
  return `CASE WHEN ${m}.occurred_at IS NULL THEN NULL ELSE
    'd' || ${f("%Y%m%d")} || ' dm' || ${f("%m%d")} || ' m' || ${f("%Y%m")} || ' mo' || ${f("%m")} || ' y' || ${f("%Y")} END`;
};

/** The FTS row of memory `m`: migration 011's columns. */
const ftsRow = (m: string) =>
  `${m}.id, ${m}.content, ${textAt(m, "- 1")}, ${textAt(m, "+ 1")}, ${occurredTerms(m)}, ${m}.time_terms, ${m}.concept_terms, 's' || hex(${m}.scope), ${m}.search_terms`;

const FTS_COLUMNS = "rowid, body, before, after, occurred, mentioned, concepts, scope_tag, terms";

const refreshNeighbours = (m: string) => `
  DELETE FROM memories_fts WHERE rowid IN (SELECT n.id FROM memories n WHERE ${besideOf(m)});
  INSERT INTO memories_fts(${FTS_COLUMNS})
    SELECT ${ftsRow("x")} FROM memories x WHERE x.id IN (SELECT n.id FROM memories n WHERE ${besideOf(m)});`;

/** Migration 011's triggers; the neighbours are re-indexed only while their rows hold this memory's text. */
const ftsTriggers = `
  CREATE TRIGGER memories_ai AFTER INSERT ON memories WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO memories_fts(${FTS_COLUMNS}) VALUES (${ftsRow("new")});
  END;
  CREATE TRIGGER memories_ai_context AFTER INSERT ON memories
  WHEN new.deleted_at IS NULL AND new.session_id IS NOT NULL AND new.item_from IS NOT NULL AND ${neighbourText} BEGIN
    ${refreshNeighbours("new")}
  END;
  CREATE TRIGGER memories_ad AFTER DELETE ON memories WHEN old.deleted_at IS NULL BEGIN
    DELETE FROM memories_fts WHERE rowid = old.id;
  END;
  CREATE TRIGGER memories_ad_context AFTER DELETE ON memories
  WHEN old.deleted_at IS NULL AND old.session_id IS NOT NULL AND old.item_from IS NOT NULL AND ${neighbourText} BEGIN
    ${refreshNeighbours("old")}
  END;
  CREATE TRIGGER memories_au AFTER UPDATE OF content, scope, deleted_at, session_id, item_from, occurred_at, time_terms, concept_terms, search_terms ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.id AND old.deleted_at IS NULL;
    INSERT INTO memories_fts(${FTS_COLUMNS}) SELECT ${ftsRow("new")} WHERE new.deleted_at IS NULL;
  END;
  CREATE TRIGGER memories_au_context AFTER UPDATE OF content, scope, deleted_at, session_id, item_from ON memories
  WHEN (old.session_id IS NOT NULL OR new.session_id IS NOT NULL) AND ${neighbourText} BEGIN
    ${refreshNeighbours("old")}
    ${refreshNeighbours("new")}
  END;`;

/**
 * The neighbours' text becomes switchable: the triggers read meta `index.neighbour_text`. Nothing is
 * re-indexed here: absent, the key means on, the index as it was.
 */
export const neighbourTextSwitch: Migration = {
  version: 18,
  name: "neighbour_text_switch",
  up(db) {
    db.exec(`
      DROP TRIGGER memories_ai; DROP TRIGGER memories_ai_context; DROP TRIGGER memories_ad;
      DROP TRIGGER memories_ad_context; DROP TRIGGER memories_au; DROP TRIGGER memories_au_context;
      ${ftsTriggers}
    `);
  },
};
