import type { Migration } from "../migration.js";

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
      CREATE VIRTUAL TABLE memories_fts USING fts5(
        body, scope_tag, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE memories_fts_vocab USING fts5vocab(memories_fts, 'row');

      CREATE TRIGGER memories_ai AFTER INSERT ON memories WHEN new.deleted_at IS NULL BEGIN
        INSERT INTO memories_fts(rowid, body, scope_tag) VALUES (new.id, new.content, 's' || hex(new.scope));
      END;
      CREATE TRIGGER memories_ad AFTER DELETE ON memories WHEN old.deleted_at IS NULL BEGIN
        DELETE FROM memories_fts WHERE rowid = old.id;
      END;
      CREATE TRIGGER memories_au AFTER UPDATE OF content, scope, deleted_at ON memories BEGIN
        DELETE FROM memories_fts WHERE rowid = old.id AND old.deleted_at IS NULL;
        INSERT INTO memories_fts(rowid, body, scope_tag)
          SELECT new.id, new.content, 's' || hex(new.scope) WHERE new.deleted_at IS NULL;
      END;

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
