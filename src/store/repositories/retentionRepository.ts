import type { Database } from "better-sqlite3";
import type { VectorIndexRepo } from "../contracts/vectors.js";

/** When each kind of row expires (epoch ms): rows older than these are purged. */
export interface RetentionCutoffs {
  /** Forgotten memories (a tombstone without a successor) whose `deleted_at` is older. */
  forgottenBefore: number;
  /** Superseded memories (replaced by a newer one) whose `superseded_at` is older, and history rows. */
  historyBefore: number;
  /** Succeeded jobs (with or without output) finished before. */
  completedJobsBefore: number;
  /** Dead jobs finished before. */
  deadJobsBefore: number;
}

/**
 * The SQL of the retention worker (seed 004 "Retention Worker"), one method per step, each taking at
 * most `limit` rows so no write transaction runs long. The caller runs each step in its own write
 * transaction, in the seed's order: the graph links of expired memories, their embeddings and vectors,
 * the memory rows, history, completed jobs, dead jobs. Every step is idempotent, so a sweep stopped
 * between two steps is finished by the next one.
 *
 * An expired memory is a forgotten one past the tombstone window or a superseded one past the history
 * window (a replaced text is the memory's history: `recall --include-superseded` shows it until then).
 */
export class RetentionRepository {
  constructor(
    private readonly db: Database,
    private readonly vectors: VectorIndexRepo,
  ) {}

  /** The oldest expired memories, at most `limit`, always the same ones until they are deleted. */
  expiredMemories(cutoffs: RetentionCutoffs, limit: number): number[] {
    return (
      this.db
        .prepare(
          `SELECT id FROM memories
             WHERE deleted_at IS NOT NULL
               AND ((superseded_by IS NULL AND deleted_at < @forgotten)
                 OR (superseded_by IS NOT NULL AND coalesce(superseded_at, deleted_at) < @history))
             ORDER BY id LIMIT @limit`,
        )
        .all({ forgotten: cutoffs.forgottenBefore, history: cutoffs.historyBefore, limit }) as Array<{ id: number }>
    ).map((row) => row.id);
  }

  /**
   * Step 1: the memories' graph links. Each entity loses one mention per link removed; an entity left
   * with no mention at all is an orphan and goes, its relations with it (both directions).
   */
  unlinkGraph(ids: readonly number[]): { links: number; entities: number; relations: number } {
    const { db } = this;
    const json = JSON.stringify(ids);
    const perEntity = db
      .prepare(
        `SELECT entity_id AS id, count(*) AS n FROM memory_entity_mentions
           WHERE memory_id IN (SELECT value FROM json_each(?)) GROUP BY entity_id`,
      )
      .all(json) as Array<{ id: number; n: number }>;
    const links = db
      .prepare("DELETE FROM memory_entity_mentions WHERE memory_id IN (SELECT value FROM json_each(?))")
      .run(json).changes;
    const decrement = db.prepare("UPDATE entities SET mentions = max(mentions - ?, 0) WHERE id = ?");
    for (const entity of perEntity) decrement.run(entity.n, entity.id);
    const orphans = JSON.stringify(
      (
        db
          .prepare(
            `SELECT id FROM entities WHERE id IN (SELECT value FROM json_each(?))
               AND NOT EXISTS (SELECT 1 FROM memory_entity_mentions m WHERE m.entity_id = entities.id)`,
          )
          .all(JSON.stringify(perEntity.map((entity) => entity.id))) as Array<{ id: number }>
      ).map((row) => row.id),
    );
    const relations = db
      .prepare(
        `DELETE FROM relations WHERE source_entity_id IN (SELECT value FROM json_each(@ids))
           OR target_entity_id IN (SELECT value FROM json_each(@ids))`,
      )
      .run({ ids: orphans }).changes;
    const entities = db
      .prepare("DELETE FROM entities WHERE id IN (SELECT value FROM json_each(?))")
      .run(orphans).changes;
    return { links, entities, relations };
  }

  /** Step 2: the memories' vector-index rows, and their embeddings no other memory shares. */
  dropEmbeddings(ids: readonly number[]): number {
    const { db } = this;
    const json = JSON.stringify(ids);
    for (const id of ids) this.vectors.remove(id);
    return db
      .prepare(
        `DELETE FROM embeddings WHERE content_hash IN
             (SELECT content_hash FROM memories WHERE id IN (SELECT value FROM json_each(@ids)))
           AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.content_hash = embeddings.content_hash
             AND m.id NOT IN (SELECT value FROM json_each(@ids)))`,
      )
      .run({ ids: json }).changes;
  }

  /**
   * Step 3: the memory rows. Their hints (and the hints' full-text rows), subject keys and any leftover
   * mentions go by cascade and trigger; their history, the history elsewhere that quotes them (a
   * replaced memory's "superseded" event holds its successor's text) and review flags about them go
   * here, so no copy of the text is left in a table.
   */
  deleteMemories(ids: readonly number[]): number {
    const { db } = this;
    const json = JSON.stringify(ids);
    db.prepare("DELETE FROM memory_history WHERE memory_id IN (SELECT value FROM json_each(?))").run(json);
    db.prepare(
      "DELETE FROM memory_history WHERE json_extract(metadata, '$.supersededBy') IN (SELECT value FROM json_each(?))",
    ).run(json);
    db.prepare(
      `DELETE FROM memory_reviews WHERE memory_id IN (SELECT value FROM json_each(@ids))
         OR related_id IN (SELECT value FROM json_each(@ids))`,
    ).run({ ids: json });
    return db.prepare("DELETE FROM memories WHERE id IN (SELECT value FROM json_each(?))").run(json).changes;
  }

  /**
   * With step 3: forgotten documents (`documents forget`) forgotten before `before` that no memory
   * links any more (their last chunk purged, or none of their own: another document holds what they
   * had), so their title and source go too. A chunk restored by hand keeps its document: it cites it.
   */
  deleteForgottenDocuments(before: number, limit: number): number {
    return this.db
      .prepare(
        `DELETE FROM documents WHERE id IN (SELECT id FROM documents d WHERE d.forgotten_at < ?
           AND NOT EXISTS (SELECT 1 FROM document_memories dm WHERE dm.document_id = d.id) ORDER BY id LIMIT ?)`,
      )
      .run(before, limit).changes;
  }

  /** Step 4: history rows older than the history window, oldest first. */
  deleteHistory(before: number, limit: number): number {
    return this.db
      .prepare(
        "DELETE FROM memory_history WHERE id IN (SELECT id FROM memory_history WHERE created_at < ? ORDER BY id LIMIT ?)",
      )
      .run(before, limit).changes;
  }

  /** Steps 5 and 6: finished jobs of these statuses, finished before `before`, oldest first. */
  deleteJobs(statuses: readonly string[], before: number, limit: number): number {
    return this.db
      .prepare(
        `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE status IN (SELECT value FROM json_each(?))
           AND coalesce(finished_at, updated_at) < ? ORDER BY id LIMIT ?)`,
      )
      .run(JSON.stringify(statuses), before, limit).changes;
  }

  /**
   * Whether a memory id was once given out and its row is gone (purged, cleared or expired): ids are
   * never reused, so an id at or below the table's sequence that has no row was deleted.
   */
  wasRemoved(id: number): boolean {
    const row = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'memories'").get() as
      | { seq: number }
      | undefined;
    if (!row || id < 1 || id > row.seq) return false;
    return this.db.prepare("SELECT 1 FROM memories WHERE id = ?").get(id) === undefined;
  }
}
