import type { Database } from "better-sqlite3";
import type { EraseRepo } from "../contracts/erase.js";
import type { VectorIndexRepo } from "../contracts/vectors.js";

/**
 * Hard deletion of whole scopes, for `cairn memory clear`: the user asked for the data to be gone, so
 * unlike `forget` (a tombstone that keeps history) nothing of these memories stays behind: rows, full-text
 * entries (by trigger), vectors, hints and mentions (by cascade), history (the pipeline's audits of facts
 * for these scopes included), embeddings no other memory shares, and graph entities no memory mentions any
 * more (their relations by cascade). Call inside a write transaction.
 */
export class EraseRepository implements EraseRepo {
  constructor(
    private readonly db: Database,
    private readonly vectors: VectorIndexRepo,
  ) {}

  scopes(scopes: readonly string[] | "all"): number {
    const { db, vectors } = this;
    const filter = scopes === "all" ? "1 = 1" : "scope IN (SELECT value FROM json_each(?))";
    const params = scopes === "all" ? [] : [JSON.stringify(scopes)];
    const rows = db.prepare(`SELECT id, content_hash FROM memories WHERE ${filter}`).all(...params) as Array<{
      id: number;
      content_hash: string;
    }>;
    const deleteHistory = db.prepare("DELETE FROM memory_history WHERE memory_id = ?");
    const deleteMemory = db.prepare("DELETE FROM memories WHERE id = ?");
    for (const row of rows) {
      vectors.remove(row.id);
      deleteHistory.run(row.id);
      deleteMemory.run(row.id);
    }
    db.prepare(
      "DELETE FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?)) AND content_hash NOT IN (SELECT content_hash FROM memories)",
    ).run(JSON.stringify([...new Set(rows.map((row) => row.content_hash))]));
    // Audits without a memory (a skipped or deduplicated fact) record their scope in the metadata.
    db.prepare(
      `DELETE FROM memory_history WHERE memory_id IS NULL AND ${
        scopes === "all" ? "1 = 1" : "json_extract(metadata, '$.scope') IN (SELECT value FROM json_each(?))"
      }`,
    ).run(...params);
    // Transcripts pushed with remember belong to the scope their memories were stored in.
    db.prepare(
      `DELETE FROM session_transcripts WHERE ${scopes === "all" ? "1 = 1" : "project IN (SELECT value FROM json_each(?))"}`,
    ).run(...params);
    db.prepare(
      "DELETE FROM entities WHERE NOT EXISTS (SELECT 1 FROM memory_entity_mentions m WHERE m.entity_id = entities.id)",
    ).run();
    return rows.length;
  }
}
