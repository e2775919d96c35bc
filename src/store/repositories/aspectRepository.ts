import type { Database } from "better-sqlite3";
import { guardText } from "../../redact/guard.js";
import type {
  AspectDecay,
  AspectRepo,
  AspectRow,
  AspectWeighting,
  EntityAwaiting,
  EntityRow,
  FactClassification,
  MentionKind,
  PendingFact,
  StructuralCounts,
} from "../contracts/aspects.js";
import { cached } from "../statements.js";

/** "Code-Style", "code_style" and "code  style" are one aspect. */
export function canonicalAspectName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[_-]+/g, " ")
    .replace(/\s+/g, " ")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}

/** Entity aspects and the classification of mentions (seed 004 "Structural Classification", "Aspect Feedback"). */
export class AspectRepository implements AspectRepo {
  constructor(private readonly db: Database) {}

  entitiesAwaiting(limit: number): EntityAwaiting[] {
    return cached(
      this.db,
      `SELECT me.entity_id AS entityId, count(*) AS waiting, max(me.rowid) AS newestMention
         FROM memory_entity_mentions me JOIN memories m ON m.id = me.memory_id
         WHERE me.classified_at IS NULL AND m.deleted_at IS NULL
         GROUP BY me.entity_id ORDER BY newestMention DESC LIMIT ?`,
    ).all(limit) as EntityAwaiting[];
  }

  entity(id: number): EntityRow | undefined {
    return cached(this.db, "SELECT id, name, entity_type AS entityType FROM entities WHERE id = ?").get(id) as
      | EntityRow
      | undefined;
  }

  aspectsOf(entityId: number): AspectRow[] {
    return cached(
      this.db,
      `SELECT id, entity_id AS entityId, name, canonical_name AS canonicalName, weight
         FROM entity_aspects WHERE entity_id = ? ORDER BY weight DESC, id`,
    ).all(entityId) as AspectRow[];
  }

  pendingFacts(entityId: number, limit: number): PendingFact[] {
    return cached(
      this.db,
      `SELECT me.memory_id AS memoryId, m.content, me.kind
         FROM memory_entity_mentions me JOIN memories m ON m.id = me.memory_id
         WHERE me.entity_id = ? AND me.classified_at IS NULL AND m.deleted_at IS NULL
         ORDER BY me.rowid LIMIT ?`,
    ).all(entityId, limit) as PendingFact[];
  }

  classify(input: { entityId: number; facts: FactClassification[]; entityType?: string; now: number }): number {
    const { entityId, now } = input;
    let created = 0;
    const aspectIds = new Map<string, number>();
    for (const fact of input.facts) {
      const name = guardText(fact.aspect).trim().replace(/\s+/g, " ");
      const canonical = canonicalAspectName(name);
      let aspectId = aspectIds.get(canonical);
      if (aspectId === undefined) {
        const existing = cached(
          this.db,
          "SELECT id FROM entity_aspects WHERE entity_id = ? AND canonical_name = ?",
        ).get(entityId, canonical) as { id: number } | undefined;
        if (existing) {
          aspectId = existing.id;
          cached(this.db, "UPDATE entity_aspects SET updated_at = ? WHERE id = ?").run(now, aspectId);
        } else {
          aspectId = Number(
            cached(
              this.db,
              "INSERT INTO entity_aspects (entity_id, name, canonical_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
            ).run(entityId, name, canonical, now, now).lastInsertRowid,
          );
          created++;
        }
        aspectIds.set(canonical, aspectId);
      }
      // A constraint stays one: decision auto-protection at write time is not undone by the model.
      cached(
        this.db,
        `UPDATE memory_entity_mentions SET aspect_id = ?, classified_at = ?,
           kind = CASE WHEN kind = 'constraint' THEN 'constraint' ELSE ? END
           WHERE memory_id = ? AND entity_id = ?`,
      ).run(aspectId, now, fact.kind satisfies MentionKind, fact.memoryId, entityId);
    }
    if (input.entityType !== undefined) {
      cached(this.db, "UPDATE entities SET entity_type = ?, updated_at = ? WHERE id = ?").run(
        input.entityType,
        now,
        entityId,
      );
    }
    return created;
  }

  confirmationsOf(memoryIds: readonly number[]): Map<number, number> {
    if (memoryIds.length === 0) return new Map();
    const rows = cached(
      this.db,
      `SELECT aspect_id AS aspectId, count(*) AS n FROM memory_entity_mentions
         WHERE memory_id IN (SELECT value FROM json_each(?)) AND aspect_id IS NOT NULL GROUP BY aspect_id`,
    ).all(JSON.stringify(memoryIds)) as { aspectId: number; n: number }[];
    return new Map(rows.map((r) => [r.aspectId, r.n]));
  }

  confirm(confirmations: ReadonlyMap<number, number>, weighting: AspectWeighting, now: number): void {
    const update = cached(
      this.db,
      "UPDATE entity_aspects SET weight = min(?, max(?, weight + ? * ?)), confirmed_at = ?, updated_at = ? WHERE id = ?",
    );
    for (const [aspectId, n] of confirmations) {
      update.run(weighting.maxWeight, weighting.minWeight, weighting.delta, n, now, now, aspectId);
    }
  }

  decay(options: AspectDecay, now: number): number {
    const cutoff = now - options.staleMs;
    return cached(
      this.db,
      `UPDATE entity_aspects SET weight = max(?, weight - ?), decayed_at = ?
         WHERE max(created_at, coalesce(confirmed_at, 0), coalesce(decayed_at, 0)) < ? AND weight > ?`,
    ).run(options.minWeight, options.rate, now, cutoff, options.minWeight).changes;
  }

  counts(): StructuralCounts {
    const one = (sql: string) => (cached(this.db, sql).get() as { n: number }).n;
    return {
      aspects: one("SELECT count(*) AS n FROM entity_aspects"),
      classified: one("SELECT count(*) AS n FROM memory_entity_mentions WHERE aspect_id IS NOT NULL"),
      waiting: one(
        `SELECT count(*) AS n FROM memory_entity_mentions me JOIN memories m ON m.id = me.memory_id
           WHERE me.classified_at IS NULL AND m.deleted_at IS NULL`,
      ),
    };
  }
}
