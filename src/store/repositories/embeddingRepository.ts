import type { Database } from "better-sqlite3";
import type { EmbeddingRepo, StaleMemory } from "../contracts/embeddings.js";
import { cached } from "../statements.js";
import { blobToVector, vectorToBlob } from "../vectorCodec.js";

export type { StaleMemory };

/** Vectors keyed by content hash: identical content in two scopes shares one vector. */
export class EmbeddingRepository implements EmbeddingRepo {
  constructor(private readonly db: Database) {}

  upsert(contentHash: string, model: string, vector: Float32Array, now: number): void {
    cached(
      this.db,
      `INSERT INTO embeddings (content_hash, model, dimensions, vector, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (content_hash) DO UPDATE SET model = excluded.model, dimensions = excluded.dimensions,
           vector = excluded.vector, created_at = excluded.created_at`,
    ).run(contentHash, model, vector.length, vectorToBlob(vector), now);
  }

  /** Stored vectors of the given model, by content hash. */
  getMany(contentHashes: string[], model: string): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    if (contentHashes.length === 0) return out;
    const rows = cached(
      this.db,
      "SELECT content_hash AS h, vector AS v FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?)) AND model = ?",
    ).all(JSON.stringify(contentHashes), model) as { h: string; v: Buffer }[];
    for (const row of rows) out.set(row.h, blobToVector(row.v));
    return out;
  }

  /** Cosine similarity to `query` per content hash, computed by sqlite-vec (requires the extension). */
  cosinesInSql(contentHashes: string[], model: string, query: Float32Array): Map<string, number> {
    if (contentHashes.length === 0) return new Map();
    const rows = cached(
      this.db,
      `SELECT content_hash AS h, 1 - vec_distance_cosine(vector, ?) AS c FROM embeddings
         WHERE content_hash IN (SELECT value FROM json_each(?)) AND model = ? AND dimensions = ?`,
    ).all(vectorToBlob(query), JSON.stringify(contentHashes), model, query.length) as { h: string; c: number }[];
    return new Map(rows.map((r) => [r.h, r.c]));
  }

  /** Vectors of live memories in the scopes, for the scan used when sqlite-vec is not loaded. */
  scanScopes(scopes: string[] | "all", model: string): { id: number; vector: Float32Array }[] {
    const scoped = scopes !== "all";
    const rows = cached(
      this.db,
      `SELECT m.id, e.vector AS v FROM memories m JOIN embeddings e ON e.content_hash = m.content_hash AND e.model = ?
         WHERE m.deleted_at IS NULL ${scoped ? "AND m.scope IN (SELECT value FROM json_each(?))" : ""}`,
    ).all(...(scoped ? [model, JSON.stringify(scopes)] : [model])) as { id: number; v: Buffer }[];
    return rows.map((row) => ({ id: row.id, vector: blobToVector(row.v) }));
  }

  /**
   * Live memories without a vector of `model`: first the ones that never got one (the provider was
   * down when they were written), newest first, so what was just written becomes searchable first;
   * then the ones embedded by another model. `memories.embedding_model` names the model of each
   * memory's vector (it is set in the transaction that writes the vector, and embedding rows are kept
   * while a memory uses them), so the partial index on it answers without reading every memory.
   */
  findStale(model: string, limit: number): StaleMemory[] {
    const columns = "SELECT id, content, content_hash AS contentHash, scope FROM memories";
    const missing = cached(
      this.db,
      `${columns} WHERE deleted_at IS NULL AND embedding_model IS NULL ORDER BY updated_at DESC LIMIT ?`,
    ).all(limit) as StaleMemory[];
    if (missing.length >= limit) return missing;
    // Two ranges instead of "!=": each one is an index range.
    const other = cached(
      this.db,
      `SELECT * FROM (${columns} WHERE deleted_at IS NULL AND embedding_model < @model LIMIT @limit)
       UNION ALL SELECT * FROM (${columns} WHERE deleted_at IS NULL AND embedding_model > @model LIMIT @limit)
       LIMIT @limit`,
    ).all({ model, limit: limit - missing.length }) as StaleMemory[];
    return [...missing, ...other];
  }

  countStale(model: string): number {
    const row = cached(
      this.db,
      // Three index ranges: an OR of them made SQLite scan the whole index.
      `SELECT (SELECT count(*) FROM memories WHERE deleted_at IS NULL AND embedding_model IS NULL)
            + (SELECT count(*) FROM memories WHERE deleted_at IS NULL AND embedding_model < @model)
            + (SELECT count(*) FROM memories WHERE deleted_at IS NULL AND embedding_model > @model) AS n`,
    ).get({ model }) as { n: number };
    return row.n;
  }
}
