import type { Database } from "better-sqlite3";
import { guardOptional, guardText } from "../../redact/guard.js";
import type {
  DocumentChunkLink,
  DocumentRecord,
  DocumentRepo,
  DocumentSourceType,
  DocumentStatus,
} from "../contracts/documents.js";
import { cached } from "../statements.js";

// The chunk count is the document's links, counted when read: a chunk erased for good (memory purge,
// retention) loses its link by trigger, and a stored count would go on counting it. The stored
// chunk_count is still written at each ingest, for a cairn of the same schema that reads it.
const COLUMNS = `id, scope, source, source_type AS sourceType, title, content_type AS contentType, status, error,
  (SELECT count(*) FROM document_memories dm WHERE dm.document_id = documents.id) AS chunkCount, who,
  created_at AS createdAt, updated_at AS updatedAt, ingested_at AS ingestedAt, forgotten_at AS forgottenAt`;

/** SQL for documents and their chunk links (migration 020). Every text a caller gave is guarded here. */
export class DocumentRepository implements DocumentRepo {
  constructor(private readonly db: Database) {}

  findLive(scope: string, source: string): DocumentRecord | undefined {
    return cached(
      this.db,
      `SELECT ${COLUMNS} FROM documents WHERE scope = ? AND source = ? AND forgotten_at IS NULL`,
    ).get(scope, guardText(source)) as DocumentRecord | undefined;
  }

  get(id: number): DocumentRecord | undefined {
    return cached(this.db, `SELECT ${COLUMNS} FROM documents WHERE id = ?`).get(id) as DocumentRecord | undefined;
  }

  create(document: {
    scope: string;
    source: string;
    sourceType: DocumentSourceType;
    title: string | null;
    rawContent: string | null;
    who: string | null;
    now: number;
  }): number {
    const info = cached(
      this.db,
      `INSERT INTO documents (scope, source, source_type, title, raw_content, status, who, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?)`,
    ).run(
      document.scope,
      guardText(document.source),
      document.sourceType,
      guardOptional(document.title),
      guardOptional(document.rawContent),
      document.who,
      document.now,
      document.now,
    );
    return Number(info.lastInsertRowid);
  }

  requeue(id: number, given: { title: string | null; rawContent: string | null }, now: number): void {
    cached(
      this.db,
      `UPDATE documents SET status = 'queued', title = coalesce(?, title), raw_content = coalesce(?, raw_content),
         updated_at = ? WHERE id = ?`,
    ).run(guardOptional(given.title), guardOptional(given.rawContent), now, id);
  }

  rawContent(id: number): string | null {
    const row = cached(this.db, "SELECT raw_content AS raw FROM documents WHERE id = ?").get(id) as
      | { raw: string | null }
      | undefined;
    return row?.raw ?? null;
  }

  setStatus(id: number, status: DocumentStatus, now: number, error?: string): void {
    cached(this.db, "UPDATE documents SET status = ?, error = coalesce(?, error), updated_at = ? WHERE id = ?").run(
      status,
      error === undefined ? null : guardText(error.slice(0, 2000)),
      now,
      id,
    );
  }

  describe(id: number, found: { title: string | null; contentType: string | null }, now: number): void {
    cached(
      this.db,
      "UPDATE documents SET title = coalesce(title, ?), content_type = coalesce(?, content_type), updated_at = ? WHERE id = ?",
    ).run(guardOptional(found.title), found.contentType, now, id);
  }

  list(filter: { scopes: string[] | "all"; limit: number }): DocumentRecord[] {
    const scoped = filter.scopes === "all" ? "" : "AND scope IN (SELECT value FROM json_each(?))";
    const params: unknown[] = filter.scopes === "all" ? [] : [JSON.stringify(filter.scopes)];
    return cached(
      this.db,
      `SELECT ${COLUMNS} FROM documents WHERE forgotten_at IS NULL ${scoped} ORDER BY updated_at DESC, id DESC LIMIT ?`,
    ).all(...params, filter.limit) as DocumentRecord[];
  }

  chunks(id: number): DocumentChunkLink[] {
    const rows = cached(
      this.db,
      `SELECT dm.chunk_index AS chunkIndex, dm.memory_id AS memoryId, m.content_hash AS contentHash, m.type AS type,
          m.deleted_at IS NOT NULL AS deleted
         FROM document_memories dm JOIN memories m ON m.id = dm.memory_id
         WHERE dm.document_id = ? ORDER BY dm.chunk_index`,
    ).all(id) as Array<Omit<DocumentChunkLink, "deleted"> & { deleted: number }>;
    return rows.map((row) => ({ ...row, deleted: row.deleted === 1 }));
  }

  finish(
    id: number,
    result: { links: Array<{ chunkIndex: number; memoryId: number }>; contentHash: string; now: number },
  ): void {
    cached(this.db, "DELETE FROM document_memories WHERE document_id = ?").run(id);
    const link = cached(
      this.db,
      "INSERT INTO document_memories (document_id, chunk_index, memory_id) VALUES (?, ?, ?)",
    );
    for (const { chunkIndex, memoryId } of result.links) link.run(id, chunkIndex, memoryId);
    cached(
      this.db,
      `UPDATE documents SET status = 'done', error = NULL, content_hash = ?, chunk_count = ?, ingested_at = ?,
         updated_at = ? WHERE id = ?`,
    ).run(result.contentHash, result.links.length, result.now, result.now, id);
  }

  holderOf(memoryId: number, exceptId: number): { id: number; title: string | null; source: string } | undefined {
    return cached(
      this.db,
      `SELECT d.id, d.title, d.source FROM document_memories dm JOIN documents d ON d.id = dm.document_id
         WHERE dm.memory_id = ? AND dm.document_id != ? AND d.forgotten_at IS NULL ORDER BY d.id LIMIT 1`,
    ).get(memoryId, exceptId) as { id: number; title: string | null; source: string } | undefined;
  }

  holds(id: number, memoryId: number): boolean {
    return (
      cached(
        this.db,
        `SELECT 1 FROM document_memories dm JOIN documents d ON d.id = dm.document_id
           WHERE dm.document_id = ? AND dm.memory_id = ? AND d.forgotten_at IS NULL LIMIT 1`,
      ).get(id, memoryId) !== undefined
    );
  }

  cite(memoryId: number, citation: { ref: string; why: string }): void {
    // Not updated_at: the chunk's text did not change, only which document it is shown under.
    cached(this.db, "UPDATE memories SET ref = ?, why = ? WHERE id = ?").run(
      guardText(citation.ref),
      guardText(citation.why),
      memoryId,
    );
  }

  unlink(id: number, memoryIds: readonly number[]): void {
    cached(
      this.db,
      "DELETE FROM document_memories WHERE document_id = ? AND memory_id IN (SELECT value FROM json_each(?))",
    ).run(id, JSON.stringify(memoryIds));
  }

  remove(id: number): void {
    cached(this.db, "DELETE FROM document_memories WHERE document_id = ?").run(id);
    cached(this.db, "DELETE FROM documents WHERE id = ?").run(id);
  }

  markForgotten(id: number, now: number): void {
    cached(
      this.db,
      "UPDATE documents SET status = 'forgotten', forgotten_at = ?, raw_content = NULL, updated_at = ? WHERE id = ?",
    ).run(now, now, id);
  }
}
