import type { Migration } from "../migration.js";

/** Live memories `n` of the same scope and session as `m`, `offset` items after it (-1: the one before). */
const at = (m: string, offset: string) =>
  `n.scope = ${m}.scope AND n.session_id = ${m}.session_id AND n.deleted_at IS NULL AND n.id != ${m}.id
   AND n.item_from = ${m}.item_from ${offset}`;

/** Memories whose before/after text includes `m`'s: the items just before and after it. */
const besideOf = (m: string) => `(${at(m, "- 1")}) OR (${at(m, "+ 1")})`;

const textAt = (m: string, offset: string) =>
  `(SELECT group_concat(n.content, ' ') FROM memories n WHERE ${at(m, offset)})`;

/**
 * The calendar tokens of the day memory `m` was said (src/memory/temporalTerms.ts spells the same
 * tokens): d20230507 dm0507 m202305 mo05 y2023; NULL without `occurred_at`.
 */
const occurredTerms = (m: string) => {
  const f = (format: string) => `strftime('${format}', ${m}.occurred_at / 1000, 'unixepoch')`;
  return `CASE WHEN ${m}.occurred_at IS NULL THEN NULL ELSE
    'd' || ${f("%Y%m%d")} || ' dm' || ${f("%m%d")} || ' m' || ${f("%Y%m")} || ' mo' || ${f("%m")} || ' y' || ${f("%Y")} END`;
};

/**
 * The FTS row of memory `m`: its text, the text of the items before and after it, the calendar
 * tokens of when it was said and of the times it mentions, its scope token.
 */
const ftsRow = (m: string) =>
  `${m}.id, ${m}.content, ${textAt(m, "- 1")}, ${textAt(m, "+ 1")}, ${occurredTerms(m)}, ${m}.time_terms, 's' || hex(${m}.scope)`;

const FTS_COLUMNS = "rowid, body, before, after, occurred, mentioned, scope_tag";

/** Re-indexes the live neighbours of `m` (their before/after text changes when `m` arrives, changes or leaves). */
const refreshNeighbours = (m: string) => `
  DELETE FROM memories_fts WHERE rowid IN (SELECT n.id FROM memories n WHERE ${besideOf(m)});
  INSERT INTO memories_fts(${FTS_COLUMNS})
    SELECT ${ftsRow("x")} FROM memories x WHERE x.id IN (SELECT n.id FROM memories n WHERE ${besideOf(m)});`;

/**
 * Triggers keep memories_fts in sync, before/after columns included. Memories without a session position
 * (most agent memories, every synthetic one in the scale benchmark) skip the neighbour work.
 */
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
  CREATE TRIGGER memories_au AFTER UPDATE OF content, scope, deleted_at, session_id, item_from, occurred_at, time_terms ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.id AND old.deleted_at IS NULL;
    INSERT INTO memories_fts(${FTS_COLUMNS}) SELECT ${ftsRow("new")} WHERE new.deleted_at IS NULL;
  END;
  CREATE TRIGGER memories_au_context AFTER UPDATE OF content, scope, deleted_at, session_id, item_from ON memories
  WHEN old.session_id IS NOT NULL OR new.session_id IS NOT NULL BEGIN
    ${refreshNeighbours("old")}
    ${refreshNeighbours("new")}
  END;`;

/**
 * The memory store: memories with their FTS index (kept in sync by triggers, tombstones leave the
 * index), vectors keyed by content hash, the change history, the entity graph and prospective hints.
 * The sqlite-vec KNN table is not created here: it depends on the embedding dimensions and on the
 * extension being loaded, so the vector index creates it on first use (see src/memory/vectorIndex.ts).
 */
export const memory: Migration = {
  version: 3,
  name: "memory",
  up(db) {
    db.exec(`
      CREATE TABLE memories (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        content TEXT NOT NULL,
        normalized_content TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        type TEXT NOT NULL DEFAULT 'fact',
        confidence REAL NOT NULL DEFAULT 1,
        importance REAL NOT NULL DEFAULT 0.5,
        scope TEXT NOT NULL,
        project TEXT,
        session_id TEXT,
        item_from INTEGER,
        item_to INTEGER,
        -- When the remembered thing was said (epoch ms), and the calendar tokens of the times its
        -- content mentions ("yesterday" resolved against occurred_at): indexed, never shown.
        occurred_at INTEGER,
        time_terms TEXT,
        ref TEXT,
        who TEXT,
        why TEXT,
        embedding_model TEXT,
        usage_count INTEGER NOT NULL DEFAULT 0,
        last_used_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        deleted_at INTEGER
      );
      CREATE UNIQUE INDEX idx_memories_live_hash ON memories(scope, content_hash) WHERE deleted_at IS NULL;
      CREATE INDEX idx_memories_scope ON memories(scope, deleted_at);
      CREATE INDEX idx_memories_session ON memories(session_id, item_from);
      CREATE INDEX idx_memories_updated ON memories(updated_at);
      CREATE INDEX idx_memories_who ON memories(lower(who), scope) WHERE who IS NOT NULL AND deleted_at IS NULL;

      -- Contentless with deletes: the text lives once (in memories); tombstoned rows leave the index.
      -- scope_tag lets a MATCH intersect with the wanted scopes inside the index (measured 3x faster at
      -- 100k memories than joining every match to memories to filter by scope).
      -- before / after hold the text of the items just before and after the memory in its session,
      -- searched with low column weights: "contextual indexing". A turn that answers ("Dinosaurs!")
      -- is findable by the words of the turn that asked ("What do your kids like?").
      -- occurred / mentioned hold calendar tokens (d20230507 m202305 ...) of when the memory was said
      -- and of the times it mentions, so "on 7 May 2023" finds "yesterday" said on 8 May.
      CREATE VIRTUAL TABLE memories_fts USING fts5(
        body, before, after, occurred, mentioned, scope_tag, content='', contentless_delete=1,
        tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE memories_fts_vocab USING fts5vocab(memories_fts, 'row');
      ${ftsTriggers}
      CREATE TABLE embeddings (
        content_hash TEXT PRIMARY KEY,
        model TEXT NOT NULL,
        dimensions INTEGER NOT NULL,
        vector BLOB NOT NULL,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE memory_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id INTEGER,
        event TEXT NOT NULL,
        old_content TEXT,
        new_content TEXT,
        who TEXT,
        reason TEXT,
        metadata TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX idx_memory_history_memory ON memory_history(memory_id, id);

      CREATE TABLE entities (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        canonical_name TEXT NOT NULL UNIQUE,
        entity_type TEXT NOT NULL DEFAULT 'extracted',
        mentions INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE relations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        source_entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        target_entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        relation_type TEXT NOT NULL,
        strength REAL NOT NULL DEFAULT 1,
        mentions INTEGER NOT NULL DEFAULT 1,
        confidence REAL NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE(source_entity_id, target_entity_id, relation_type)
      );
      CREATE INDEX idx_relations_target ON relations(target_entity_id);

      CREATE TABLE memory_entity_mentions (
        memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        mention_text TEXT NOT NULL,
        confidence REAL NOT NULL,
        kind TEXT NOT NULL DEFAULT 'attribute',
        PRIMARY KEY (memory_id, entity_id)
      );
      CREATE INDEX idx_mentions_entity ON memory_entity_mentions(entity_id);

      CREATE TABLE memory_hints (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        hint TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE(memory_id, hint)
      );
      CREATE VIRTUAL TABLE memory_hints_fts USING fts5(
        hint, content='memory_hints', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER memory_hints_ai AFTER INSERT ON memory_hints BEGIN
        INSERT INTO memory_hints_fts(rowid, hint) VALUES (new.id, new.hint);
      END;
      CREATE TRIGGER memory_hints_ad AFTER DELETE ON memory_hints BEGIN
        INSERT INTO memory_hints_fts(memory_hints_fts, rowid, hint) VALUES ('delete', old.id, old.hint);
      END;
    `);
  },
};
