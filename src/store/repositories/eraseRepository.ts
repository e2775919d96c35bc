import type { Database } from "better-sqlite3";
import type { EraseRepo } from "../contracts/erase.js";
import type { VectorIndexRepo } from "../contracts/vectors.js";
import { scrubText } from "../scrubText.js";

/** The columns of a memory that carry what was said (not its scope, type or other labels). */
const MEMORY_TEXT = ["content", "why", "ref", "who", "search_terms"];

/** Tables whose rows holding a purged text are deleted (with what hangs off them), not rewritten. */
const DELETED_NOT_REWRITTEN = new Set(["memories", "memory_hints", "entities"]);

/**
 * Hard deletion of whole scopes (`cairn memory clear`) or of what the sessions `memories.exclude` now
 * covers taught: the user asked for the data to be gone, so unlike `forget` (a tombstone that keeps
 * history) nothing of these memories stays behind: rows, full-text entries (by trigger), vectors, hints
 * and mentions (by cascade), history (for scopes, the pipeline's audits of facts for them too), review
 * flags, embeddings no other memory shares, and graph entities no memory mentions any more (their
 * relations by cascade). Call inside a write transaction.
 */
export class EraseRepository implements EraseRepo {
  constructor(
    private readonly db: Database,
    private readonly vectors: VectorIndexRepo,
  ) {}

  scopes(scopes: readonly string[] | "all"): number {
    const { db } = this;
    const filter = scopes === "all" ? "1 = 1" : "scope IN (SELECT value FROM json_each(?))";
    const params = scopes === "all" ? [] : [JSON.stringify(scopes)];
    const rows = db.prepare(`SELECT id, content_hash FROM memories WHERE ${filter}`).all(...params) as ErasedRow[];
    this.eraseRows(rows);
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
    // The documents whose chunks were just erased (their links go with them), their stored text too.
    db.prepare(`DELETE FROM documents WHERE ${filter}`).run(...params);
    // Checkpoints of the project's sessions digest their work, and continuity scores may quote it.
    const projects = scopes === "all" ? "1 = 1" : "project_key IN (SELECT value FROM json_each(?))";
    db.prepare(`DELETE FROM session_checkpoints WHERE ${projects}`).run(...params);
    db.prepare(
      `DELETE FROM session_scores WHERE ${scopes === "all" ? "1 = 1" : `session_id IN (SELECT id FROM sessions WHERE ${projects})`}`,
    ).run(...params);
    return rows.length;
  }

  sessions(sessionIds: readonly string[]): { erased: number; replaced: number[] } {
    const { db } = this;
    const ids = JSON.stringify(sessionIds);
    const rows = db
      .prepare("SELECT id, content_hash FROM memories WHERE session_id IN (SELECT value FROM json_each(?))")
      .all(ids) as ErasedRow[];
    // Memories of other sessions that one of these had replaced: without it they are current again.
    const replaced = db
      .prepare(
        `SELECT id FROM memories WHERE superseded_by IN (SELECT value FROM json_each(?))
           AND (session_id IS NULL OR session_id NOT IN (SELECT value FROM json_each(?))) ORDER BY id`,
      )
      .all(JSON.stringify(rows.map((row) => row.id)), ids) as Array<{ id: number }>;
    this.eraseRows(rows);
    // History elsewhere that quotes them: a memory's "superseded" event holds its successor's text, and a
    // fact the pipeline skipped or merged records its session in an audit row of its own.
    db.prepare(
      `DELETE FROM memory_history WHERE json_extract(metadata, '$.supersededBy') IN (SELECT value FROM json_each(?))
         OR json_extract(metadata, '$.sessionId') IN (SELECT value FROM json_each(?))`,
    ).run(JSON.stringify(rows.map((row) => row.id)), ids);
    // What cairn wrote about the sessions themselves: their checkpoints and continuity scores.
    db.prepare("DELETE FROM session_checkpoints WHERE session_key IN (SELECT value FROM json_each(?))").run(ids);
    db.prepare("DELETE FROM session_scores WHERE session_id IN (SELECT value FROM json_each(?))").run(ids);
    db.prepare("DELETE FROM session_injections WHERE session_id IN (SELECT value FROM json_each(?))").run(ids);
    return { erased: rows.length, replaced: replaced.map((row) => row.id) };
  }

  /**
   * `cairn memory purge`: every trace of `text` (any letter case). Memories holding it in their text
   * (content, why, ref, who, search terms) are erased whatever their state (superseded and forgotten ones too), with their history; so are
   * hints and graph entities naming it. Everywhere else (session items and titles, stage-1 outputs,
   * other memories' history, review flags, transcripts, jobs, meta) the text is replaced where it stands.
   */
  text(text: string): { erased: number; replaced: number[]; scopes: string[]; rewritten: number } {
    const { db } = this;
    const holds = MEMORY_TEXT.map((column) => `instr(lower(coalesce(${column}, '')), lower(@text)) > 0`);
    const rows = db
      .prepare(`SELECT id, content_hash, scope FROM memories WHERE ${holds.join(" OR ")}`)
      .all({ text }) as Array<ErasedRow & { scope: string }>;
    const { replaced } = this.memoriesById(rows);
    db.prepare("DELETE FROM memory_hints WHERE instr(lower(hint), lower(?)) > 0").run(text);
    db.prepare(
      "DELETE FROM entities WHERE instr(lower(name), lower(@text)) > 0 OR instr(lower(canonical_name), lower(@text)) > 0",
    ).run({ text });
    const rewritten = scrubText(db, text, DELETED_NOT_REWRITTEN);
    return { erased: rows.length, replaced, scopes: [...new Set(rows.map((row) => row.scope))].sort(), rewritten };
  }

  /** One memory by id, whatever its state, with its history; null when there is none. */
  memory(id: number): { content: string; scope: string; replaced: number[] } | null {
    const row = this.db.prepare("SELECT id, content_hash, content, scope FROM memories WHERE id = ?").get(id) as
      | (ErasedRow & { content: string; scope: string })
      | undefined;
    if (!row) return null;
    return { content: row.content, scope: row.scope, replaced: this.memoriesById([row]).replaced };
  }

  /**
   * Erases these memories and the history elsewhere that quotes them; returns the memories they had
   * replaced (still tombstoned: the caller decides whether they come back).
   */
  private memoriesById(rows: readonly ErasedRow[]): { replaced: number[] } {
    const { db } = this;
    const ids = JSON.stringify(rows.map((row) => row.id));
    const replaced = db
      .prepare(
        `SELECT id FROM memories WHERE superseded_by IN (SELECT value FROM json_each(@ids))
           AND id NOT IN (SELECT value FROM json_each(@ids)) ORDER BY id`,
      )
      .all({ ids }) as Array<{ id: number }>;
    this.eraseRows(rows);
    db.prepare(
      "DELETE FROM memory_history WHERE json_extract(metadata, '$.supersededBy') IN (SELECT value FROM json_each(?))",
    ).run(ids);
    return { replaced: replaced.map((row) => row.id) };
  }

  /**
   * The memories, their vectors, history and review flags, embeddings no other memory shares, and
   * graph entities no memory mentions any more.
   */
  private eraseRows(rows: readonly ErasedRow[]): void {
    const { db, vectors } = this;
    const deleteHistory = db.prepare("DELETE FROM memory_history WHERE memory_id = ?");
    // A flag holds the text of both memories (and a proposal); one about a memory that is gone decides nothing.
    const deleteReviews = db.prepare("DELETE FROM memory_reviews WHERE memory_id = ? OR related_id = ?");
    const deleteMemory = db.prepare("DELETE FROM memories WHERE id = ?");
    for (const row of rows) {
      vectors.remove(row.id);
      deleteHistory.run(row.id);
      deleteReviews.run(row.id, row.id);
      deleteMemory.run(row.id);
    }
    db.prepare(
      "DELETE FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?)) AND content_hash NOT IN (SELECT content_hash FROM memories)",
    ).run(JSON.stringify([...new Set(rows.map((row) => row.content_hash))]));
    db.prepare(
      "DELETE FROM entities WHERE NOT EXISTS (SELECT 1 FROM memory_entity_mentions m WHERE m.entity_id = entities.id)",
    ).run();
  }
}

interface ErasedRow {
  id: number;
  content_hash: string;
}
