import type { Migration } from "../migration.js";

/**
 * Documents fed in with `cairn ingest` (seed 004's Document Ingest): one row per source (a file, a URL
 * or a text given over HTTP or MCP) in a scope, its status moving queued -> extracting -> chunking ->
 * embedding -> indexing -> done (or failed), and the memories of type `document_chunk` its text was cut
 * into, in order, in `document_memories`. A chunk is a memory like any other (FTS, vectors, redaction,
 * scope); the link lets a document's chunks be listed, deduplicated on a new ingest and forgotten as a
 * unit. A memory row deleted for good (retention, `memory purge`, `memory clear`) takes its links along.
 *
 * Chunks are not what a user remembered: the remembered index (migration 012), which a session's start
 * hook reads, leaves them out, so a manual of 5,000 chunks is never walked at every session start. The
 * query states the same condition (`NEWEST_REMEMBERED_SQL`).
 *
 * Idempotent (IF NOT EXISTS, triggers dropped first): a store marked older than it is runs it again.
 */
export const documents: Migration = {
  version: 20,
  name: "documents",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS documents (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        scope TEXT NOT NULL,
        source TEXT NOT NULL,
        source_type TEXT NOT NULL,
        title TEXT,
        content_type TEXT,
        -- A text given over HTTP or MCP has no file or URL to read again when its job is retried.
        raw_content TEXT,
        content_hash TEXT,
        status TEXT NOT NULL,
        error TEXT,
        chunk_count INTEGER NOT NULL DEFAULT 0,
        who TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        ingested_at INTEGER,
        forgotten_at INTEGER
      );
      CREATE UNIQUE INDEX IF NOT EXISTS idx_documents_source ON documents(scope, source) WHERE forgotten_at IS NULL;
      CREATE TABLE IF NOT EXISTS document_memories (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        chunk_index INTEGER NOT NULL,
        memory_id INTEGER NOT NULL,
        PRIMARY KEY (document_id, chunk_index)
      );
      CREATE INDEX IF NOT EXISTS idx_document_memories_memory ON document_memories(memory_id);
      DROP TRIGGER IF EXISTS document_memories_ad;
      CREATE TRIGGER document_memories_ad AFTER DELETE ON memories BEGIN
        DELETE FROM document_memories WHERE memory_id = old.id;
      END;
      DROP INDEX IF EXISTS idx_memories_remembered;
      CREATE INDEX idx_memories_remembered ON memories(scope, coalesce(occurred_at, created_at) DESC, id DESC)
        WHERE deleted_at IS NULL AND who IS NOT 'fact-pipeline' AND type IS NOT 'document_chunk';
    `);
  },
};
