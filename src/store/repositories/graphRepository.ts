import type { Database } from "better-sqlite3";
import { guardText } from "../../redact/guard.js";
import { isDecisionContent } from "../../text/decisionLanguage.js";
import type { GraphRepo } from "../contracts/graph.js";
import { cached } from "../statements.js";

export function canonicalEntityName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, " ");
}

export interface MentionInput {
  memoryId: number;
  name: string;
  confidence: number;
  kind: "attribute" | "constraint";
  entityType?: string;
}

/** Entities, relations and memory mentions (seed 004 "Knowledge Graph"). */
export class GraphRepository implements GraphRepo {
  constructor(private readonly db: Database) {}

  /** Inserts the entity or increments its mentions; returns its id. */
  upsertEntity(rawName: string, entityType: string, now: number): number {
    const name = guardText(rawName);
    const canonical = canonicalEntityName(name);
    const row = cached(
      this.db,
      `INSERT INTO entities (name, canonical_name, entity_type, mentions, created_at, updated_at)
         VALUES (?, ?, ?, 1, ?, ?)
         ON CONFLICT (canonical_name) DO UPDATE SET mentions = mentions + 1, updated_at = excluded.updated_at
         RETURNING id`,
    ).get(name.trim(), canonical, entityType, now, now) as { id: number };
    return row.id;
  }

  /** A repeated relation gains a mention and its confidence becomes the running average. */
  upsertRelation(sourceId: number, targetId: number, relationType: string, confidence: number, now: number): void {
    cached(
      this.db,
      `INSERT INTO relations (source_entity_id, target_entity_id, relation_type, strength, mentions, confidence, created_at, updated_at)
         VALUES (?, ?, ?, 1.0, 1, ?, ?, ?)
         ON CONFLICT (source_entity_id, target_entity_id, relation_type) DO UPDATE SET
           confidence = (confidence * mentions + excluded.confidence) / (mentions + 1),
           mentions = mentions + 1, updated_at = excluded.updated_at`,
    ).run(sourceId, targetId, guardText(relationType).trim(), confidence, now, now);
  }

  /**
   * Idempotent: re-processing the same memory does not count the mention twice. A mention in a memory
   * that states a decision is a constraint whoever writes it (decision auto-protection, seed 004): the
   * inline linker knows, the graph stage of fact ingest does not.
   */
  addMention(memoryId: number, entityId: number, mentionText: string, confidence: number, kind: string): boolean {
    const protectedKind = kind === "attribute" && this.statesDecision(memoryId) ? "constraint" : kind;
    return (
      cached(
        this.db,
        `INSERT OR IGNORE INTO memory_entity_mentions (memory_id, entity_id, mention_text, confidence, kind)
           VALUES (?, ?, ?, ?, ?)`,
      ).run(memoryId, entityId, guardText(mentionText), confidence, protectedKind).changes > 0
    );
  }

  private statesDecision(memoryId: number): boolean {
    const row = cached(this.db, "SELECT content FROM memories WHERE id = ?").get(memoryId) as
      | { content: string }
      | undefined;
    return row !== undefined && isDecisionContent(row.content);
  }

  /** Entities whose canonical name contains the token, most mentioned first. */
  entitiesMatching(token: string, limit: number): number[] {
    return (
      cached(
        this.db,
        "SELECT id FROM entities WHERE canonical_name LIKE ? ESCAPE '\\' ORDER BY mentions DESC LIMIT ?",
      ).all(`%${token.replace(/[\\%_]/g, "\\$&")}%`, limit) as { id: number }[]
    ).map((r) => r.id);
  }

  /** One hop through relations, both directions. */
  neighbors(entityIds: number[], limit: number): number[] {
    if (entityIds.length === 0) return [];
    const ids = JSON.stringify(entityIds);
    return (
      cached(
        this.db,
        `SELECT DISTINCT other FROM (
             SELECT target_entity_id AS other FROM relations WHERE source_entity_id IN (SELECT value FROM json_each(?))
             UNION SELECT source_entity_id FROM relations WHERE target_entity_id IN (SELECT value FROM json_each(?)))
           WHERE other NOT IN (SELECT value FROM json_each(?)) LIMIT ?`,
      ).all(ids, ids, ids, limit) as { other: number }[]
    ).map((r) => r.other);
  }

  /** The entities the memories mention. */
  entitiesOf(memoryIds: number[]): number[] {
    if (memoryIds.length === 0) return [];
    return (
      cached(
        this.db,
        "SELECT DISTINCT entity_id AS id FROM memory_entity_mentions WHERE memory_id IN (SELECT value FROM json_each(?))",
      ).all(JSON.stringify(memoryIds)) as { id: number }[]
    ).map((r) => r.id);
  }

  /** Live memories mentioning any of the entities, restricted to the scopes. */
  memoriesMentioning(entityIds: number[], scopes: string[] | "all", limit: number): number[] {
    if (entityIds.length === 0) return [];
    const scoped = scopes !== "all";
    const params: unknown[] = [JSON.stringify(entityIds)];
    if (scoped) params.push(JSON.stringify(scopes));
    params.push(limit);
    return (
      cached(
        this.db,
        `SELECT DISTINCT m.id FROM memory_entity_mentions me JOIN memories m ON m.id = me.memory_id
           WHERE me.entity_id IN (SELECT value FROM json_each(?)) AND m.deleted_at IS NULL
           ${scoped ? "AND m.scope IN (SELECT value FROM json_each(?))" : ""} LIMIT ?`,
      ).all(...params) as { id: number }[]
    ).map((r) => r.id);
  }

  /** For hub dampening: each memory's linked entities with their mention counts. */
  entityDegrees(memoryIds: number[]): Map<number, number[]> {
    const out = new Map<number, number[]>();
    if (memoryIds.length === 0) return out;
    const rows = cached(
      this.db,
      `SELECT me.memory_id AS memoryId, e.mentions FROM memory_entity_mentions me JOIN entities e ON e.id = me.entity_id
         WHERE me.memory_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(memoryIds)) as { memoryId: number; mentions: number }[];
    for (const row of rows) {
      const list = out.get(row.memoryId) ?? [];
      list.push(row.mentions);
      out.set(row.memoryId, list);
    }
    return out;
  }

  siblingsOf(memoryId: number): number[] {
    return (
      cached(
        this.db,
        `SELECT DISTINCT other.memory_id AS id FROM memory_entity_mentions own
           JOIN memory_entity_mentions other ON other.entity_id = own.entity_id AND other.aspect_id = own.aspect_id
           JOIN memories m ON m.id = other.memory_id
           WHERE own.memory_id = ? AND own.aspect_id IS NOT NULL AND other.memory_id != own.memory_id
             AND m.deleted_at IS NULL
           ORDER BY other.memory_id DESC`,
      ).all(memoryId) as { id: number }[]
    ).map((r) => r.id);
  }

  counts(): { entities: number; relations: number; mentions: number } {
    const one = (sql: string) => (cached(this.db, sql).get() as { n: number }).n;
    return {
      entities: one("SELECT count(*) AS n FROM entities"),
      relations: one("SELECT count(*) AS n FROM relations"),
      mentions: one("SELECT count(*) AS n FROM memory_entity_mentions"),
    };
  }
}
