import type { Migration } from "../migration.js";

/**
 * The memory store: memories with their FTS index (kept in sync by triggers, tombstones leave the
 * index), vectors keyed by content hash, the change history, the entity graph and prospective hints.
 * The sqlite-vec KNN table is not created here: it depends on the embedding dimensions and on the
 * extension being loaded, so the vector index creates it on first use (see src/memory/vectorIndex.ts).
 */
/** Live memories of the same scope and session one item before or after `m` (the context window). */
const neighbourOf = (m: string) =>
  `n.scope = ${m}.scope AND n.session_id = ${m}.session_id AND n.deleted_at IS NULL AND n.id != ${m}.id
   AND n.item_from BETWEEN ${m}.item_from - 1 AND ${m}.item_from + 1`;

/** The FTS row of memory `m`: its text, its neighbours' text, its scope token. */
const ftsRow = (m: string) =>
  `${m}.id, ${m}.content,
   (SELECT group_concat(n.content, ' ') FROM memories n WHERE ${neighbourOf(m)}),
   's' || hex(${m}.scope)`;

/** Re-indexes the live neighbours of `m` (their context changes when `m` arrives, changes or leaves). */
const refreshNeighbours = (m: string) => `
  DELETE FROM memories_fts WHERE rowid IN (SELECT n.id FROM memories n WHERE ${neighbourOf(m)});
  INSERT INTO memories_fts(rowid, body, context, scope_tag)
    SELECT ${ftsRow("x")} FROM memories x WHERE x.id IN (SELECT n.id FROM memories n WHERE ${neighbourOf(m)});`;

/**
 * Triggers keep memories_fts in sync, context column included. Memories without a session position
 * (most agent memories, every synthetic one in the scale benchmark) skip the neighbour work.
 */
const ftsTriggers = `
  CREATE TRIGGER memories_ai AFTER INSERT ON memories WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO memories_fts(rowid, body, context, scope_tag) VALUES (${ftsRow("new")});
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
  CREATE TRIGGER memories_au AFTER UPDATE OF content, scope, deleted_at, session_id, item_from ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.id AND old.deleted_at IS NULL;
    INSERT INTO memories_fts(rowid, body, context, scope_tag) SELECT ${ftsRow("new")} WHERE new.deleted_at IS NULL;
  END;
  CREATE TRIGGER memories_au_context AFTER UPDATE OF content, scope, deleted_at, session_id, item_from ON memories
  WHEN old.session_id IS NOT NULL OR new.session_id IS NOT NULL BEGIN
    ${refreshNeighbours("old")}
    ${refreshNeighbours("new")}
  END;`;

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
      -- context holds the text of the memory's neighbours in its session (the items just before and
      -- after), searched with a low column weight: "contextual indexing". A turn that answers
      -- ("Dinosaurs!") is findable by the words of the turn that asked ("What do your kids like?").
      CREATE VIRTUAL TABLE memories_fts USING fts5(
        body, context, scope_tag, content='', contentless_delete=1,
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
