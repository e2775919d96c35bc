import type { Database } from "better-sqlite3";
import { guardOptional, guardText } from "../../redact/guard.js";
import { subjectKeys } from "../../text/subjectNames.js";
import {
  AGENT_WHO_PREFIX,
  DOCUMENT_CHUNK_TYPE,
  FACT_PIPELINE_WHO,
  type MemoryRef,
  type MemoryRepo,
  type NeighborRow,
  type NewMemoryRow,
} from "../contracts/memories.js";
import { cached } from "../statements.js";
import type { MemoryRecord } from "../types/memoryRecord.js";

export type { MemoryRef, NeighborRow, NewMemoryRow };

interface MemoryRowDb {
  id: number;
  content: string;
  normalized_content: string;
  content_hash: string;
  type: string;
  confidence: number;
  importance: number;
  scope: string;
  project: string | null;
  session_id: string | null;
  item_from: number | null;
  item_to: number | null;
  occurred_at: number | null;
  ref: string | null;
  who: string | null;
  why: string | null;
  embedding_model: string | null;
  usage_count: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  superseded_by: number | null;
  superseded_at: number | null;
}

function toRecord(row: MemoryRowDb): MemoryRecord {
  const provenance: MemoryRecord["provenance"] = {};
  if (row.session_id !== null) provenance.sessionId = row.session_id;
  if (row.item_from !== null) provenance.itemFrom = row.item_from;
  if (row.item_to !== null) provenance.itemTo = row.item_to;
  return {
    id: row.id,
    content: row.content,
    normalizedContent: row.normalized_content,
    contentHash: row.content_hash,
    type: row.type,
    confidence: row.confidence,
    importance: row.importance,
    scope: row.scope,
    project: row.project,
    ref: row.ref,
    provenance,
    occurredAt: row.occurred_at ?? null,
    who: row.who,
    why: row.why,
    embeddingModel: row.embedding_model,
    usageCount: row.usage_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    supersededBy: row.superseded_by ?? null,
    supersededAt: row.superseded_at ?? null,
  };
}

/**
 * A scope's live remembered memories, newest first, with the condition and order that
 * idx_memories_remembered states (migrations 012 and 020), so that it answers from the index. A
 * document's chunks are not something the user remembered.
 */
export const NEWEST_REMEMBERED_SQL = `SELECT * FROM memories
  WHERE scope = @scope AND deleted_at IS NULL AND who IS NOT '${FACT_PIPELINE_WHO}'
    AND type IS NOT '${DOCUMENT_CHUNK_TYPE}'
  ORDER BY coalesce(occurred_at, created_at) DESC, id DESC LIMIT @limit`;

/** The same without what an agent stored and the user did not confirm; the index still answers it. */
export const NEWEST_CONFIRMED_SQL = NEWEST_REMEMBERED_SQL.replace(
  "ORDER BY",
  `AND coalesce(who, '') NOT LIKE '${AGENT_WHO_PREFIX}%'\n  ORDER BY`,
);

/** SQL for the memories table. No caching: several processes share the file. */
export class MemoryRepository implements MemoryRepo {
  constructor(private readonly db: Database) {}

  /**
   * Inserts a live row; returns undefined when a live row with the same scope and hash exists. The texts
   * are guarded here as at every door (prepareRemember guarded the content before deriving the hash,
   * vectors and index terms from it, so this changes nothing for rows it built).
   */
  insert(row: NewMemoryRow): number | undefined {
    const scope = guardText(row.scope);
    const content = guardText(row.content);
    const result = cached(
      this.db,
      `INSERT INTO memories (content, normalized_content, content_hash, type, confidence, importance, scope, project,
           session_id, item_from, item_to, occurred_at, time_terms, concept_terms, search_terms, ref, who, why, embedding_model, created_at, updated_at)
         VALUES (@content, @normalizedContent, @contentHash, @type, @confidence, @importance, @scope, @project,
           @sessionId, @itemFrom, @itemTo, @occurredAt, @timeTerms, @conceptTerms, @searchTerms, @ref, @who, @why, @embeddingModel, @now, @now)
         ON CONFLICT (scope, content_hash) WHERE deleted_at IS NULL DO NOTHING`,
    ).run({
      ...row,
      scope,
      project: guardOptional(row.project),
      sessionId: guardOptional(row.sessionId),
      content,
      normalizedContent: guardText(row.normalizedContent),
      searchTerms: guardOptional(row.searchTerms),
      ref: guardOptional(row.ref),
      who: guardOptional(row.who),
      why: guardOptional(row.why),
    });
    if (result.changes === 0) return undefined;
    const id = Number(result.lastInsertRowid);
    // The subject keys (migration 019), for the revise job's candidates.
    const key = cached(this.db, "INSERT OR IGNORE INTO memory_subjects (scope, key, memory_id) VALUES (?, ?, ?)");
    for (const subject of subjectKeys(content)) key.run(scope, subject, id);
    return id;
  }

  sharingSubject(scope: string, keys: readonly string[], limit: number): number[] {
    if (keys.length === 0) return [];
    const rows = cached(
      this.db,
      `SELECT DISTINCT s.memory_id AS id FROM memory_subjects s JOIN memories m ON m.id = s.memory_id
         WHERE s.scope = ? AND s.key IN (SELECT value FROM json_each(?)) AND m.deleted_at IS NULL
         ORDER BY s.memory_id DESC LIMIT ?`,
    ).all(scope, JSON.stringify(keys), limit) as { id: number }[];
    return rows.map((r) => r.id);
  }

  liveBySubject(scope: string, keys: readonly string[], limit: number): Map<string, number[]> {
    const lists = new Map<string, number[]>();
    if (keys.length === 0) return lists;
    // One ordered, limited index read per key, all in one statement: a revise batch asked once per
    // memory, and the statement's own cost was most of each answer.
    const rows = cached(
      this.db,
      `SELECT k.value AS key, (SELECT json_group_array(id) FROM (SELECT s.memory_id AS id FROM memory_subjects s
           JOIN memories m ON m.id = s.memory_id WHERE s.scope = ? AND s.key = k.value AND m.deleted_at IS NULL
           ORDER BY s.memory_id DESC LIMIT ?)) AS ids FROM json_each(?) k`,
    ).all(scope, limit, JSON.stringify(keys)) as { key: string; ids: string }[];
    for (const row of rows)
      lists.set(
        row.key,
        (JSON.parse(row.ids) as number[]).sort((a, b) => b - a),
      );
    return lists;
  }

  findLiveByHash(scope: string, contentHash: string): number | undefined {
    const row = cached(
      this.db,
      "SELECT id FROM memories WHERE scope = ? AND content_hash = ? AND deleted_at IS NULL",
    ).get(scope, contentHash) as { id: number } | undefined;
    return row?.id;
  }

  maxId(): number {
    return (cached(this.db, "SELECT COALESCE(MAX(id), 0) AS id FROM memories").get() as { id: number }).id;
  }

  projectlessFacts(scope: string, afterId: number, upTo: number, limit: number): MemoryRecord[] {
    return (
      cached(
        this.db,
        `SELECT * FROM memories WHERE id > ? AND id <= ? AND scope = ?
           AND who = '${FACT_PIPELINE_WHO}' AND project IS NULL AND session_id IS NOT NULL ORDER BY id LIMIT ?`,
      ).all(afterId, upTo, scope, limit) as MemoryRowDb[]
    ).map(toRecord);
  }

  pipelineFactsLike(patterns: string[], afterId: number, upTo: number, limit: number): MemoryRecord[] {
    return (
      cached(
        this.db,
        `SELECT * FROM memories WHERE id > ? AND id <= ? AND deleted_at IS NULL AND who = '${FACT_PIPELINE_WHO}'
           AND session_id IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(?) p WHERE memories.content LIKE p.value)
           ORDER BY id LIMIT ?`,
      ).all(afterId, upTo, JSON.stringify(patterns), limit) as MemoryRowDb[]
    ).map(toRecord);
  }

  moveScope(id: number, scope: string, project: string | null, now: number): boolean {
    return (
      cached(
        this.db,
        `UPDATE memories SET scope = @scope, project = @project, updated_at = @now WHERE id = @id
           AND NOT (deleted_at IS NULL AND EXISTS (SELECT 1 FROM memories t
             WHERE t.scope = @scope AND t.content_hash = memories.content_hash AND t.deleted_at IS NULL))`,
      ).run({ id, scope: guardText(scope), project: guardOptional(project), now }).changes > 0
    );
  }

  liveAfter(scope: string, afterId: number, limit: number): Array<{ id: number; content: string }> {
    return cached(
      this.db,
      "SELECT id, content FROM memories WHERE scope = ? AND id > ? AND deleted_at IS NULL ORDER BY id LIMIT ?",
    ).all(scope, afterId, limit) as Array<{ id: number; content: string }>;
  }

  get(id: number): MemoryRecord | undefined {
    const row = cached(this.db, "SELECT * FROM memories WHERE id = ?").get(id) as MemoryRowDb | undefined;
    return row ? toRecord(row) : undefined;
  }

  setAuthor(id: number, who: string, now: number): boolean {
    return (
      cached(this.db, "UPDATE memories SET who = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL").run(
        guardText(who),
        now,
        id,
      ).changes > 0
    );
  }

  newestRemembered(scope: string, limit: number, options: { withoutAgents?: boolean } = {}): MemoryRecord[] {
    const sql = options.withoutAgents ? NEWEST_CONFIRMED_SQL : NEWEST_REMEMBERED_SQL;
    return (cached(this.db, sql).all({ scope, limit }) as MemoryRowDb[]).map(toRecord);
  }

  /** Live rows by id, in no particular order; optional scope and type filters are the authorization step. */
  getLive(ids: number[], filter: { scopes: string[] | "all"; types?: string[] }): MemoryRecord[] {
    if (ids.length === 0) return [];
    const params: unknown[] = [JSON.stringify(ids)];
    let sql = "SELECT m.* FROM memories m WHERE m.id IN (SELECT value FROM json_each(?)) AND m.deleted_at IS NULL";
    if (filter.scopes !== "all") {
      sql += " AND m.scope IN (SELECT value FROM json_each(?))";
      params.push(JSON.stringify(filter.scopes));
    }
    if (filter.types && filter.types.length > 0) {
      sql += " AND m.type IN (SELECT value FROM json_each(?))";
      params.push(JSON.stringify(filter.types));
    }
    return (cached(this.db, sql).all(...params) as MemoryRowDb[]).map(toRecord);
  }

  /** The slim rows recall scores (no text): live, in the scopes, of the types. */
  getRefs(ids: number[], filter: { scopes: string[] | "all"; types?: string[] }): MemoryRef[] {
    if (ids.length === 0) return [];
    const params: unknown[] = [JSON.stringify(ids)];
    let sql = `SELECT id, content_hash AS contentHash, scope, type, who, session_id AS sessionId, item_from AS itemFrom
      FROM memories WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL`;
    if (filter.scopes !== "all") {
      sql += " AND scope IN (SELECT value FROM json_each(?))";
      params.push(JSON.stringify(filter.scopes));
    }
    if (filter.types && filter.types.length > 0) {
      sql += " AND type IN (SELECT value FROM json_each(?))";
      params.push(JSON.stringify(filter.types));
    }
    return cached(this.db, sql).all(...params) as MemoryRef[];
  }

  /** When each memory was said and the calendar tokens of the times its content mentions. */
  timeMentions(ids: number[]): Map<number, { occurredAt: number | null; timeTerms: string | null }> {
    const rows = cached(
      this.db,
      "SELECT id, occurred_at AS occurredAt, time_terms AS timeTerms FROM memories WHERE id IN (SELECT value FROM json_each(?))",
    ).all(JSON.stringify(ids)) as { id: number; occurredAt: number | null; timeTerms: string | null }[];
    return new Map(rows.map((r) => [r.id, r]));
  }

  contents(ids: number[]): Map<number, string> {
    const rows = cached(this.db, "SELECT id, content FROM memories WHERE id IN (SELECT value FROM json_each(?))").all(
      JSON.stringify(ids),
    ) as { id: number; content: string }[];
    return new Map(rows.map((r) => [r.id, r.content]));
  }

  /** Live memories with an id above `afterId` and no hints yet, in id order (prospective indexing's backlog). */
  idsWithoutHintsAfter(afterId: number, limit: number): number[] {
    const rows = cached(
      this.db,
      `SELECT id FROM memories m WHERE id > ? AND deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM memory_hints h WHERE h.memory_id = m.id) ORDER BY id LIMIT ?`,
    ).all(afterId, limit) as { id: number }[];
    return rows.map((r) => r.id);
  }

  searchTermsOf(id: number): string | null {
    const row = cached(this.db, "SELECT search_terms AS terms FROM memories WHERE id = ?").get(id) as
      | { terms: string | null }
      | undefined;
    return row?.terms ?? null;
  }

  addSearchTerms(id: number, terms: string, maxChars: number): boolean {
    const row = cached(this.db, "SELECT search_terms AS terms FROM memories WHERE id = ?").get(id) as
      | { terms: string | null }
      | undefined;
    if (!row) return false;
    const words = row.terms ? row.terms.split(" ") : [];
    const seen = new Set(words.map((word) => word.toLowerCase()));
    let length = row.terms?.length ?? 0;
    for (const word of guardText(terms).split(/\s+/)) {
      // A redaction marker would only index the word "redacted".
      if (word === "" || word.includes("[REDACTED:") || seen.has(word.toLowerCase())) continue;
      if (length + (words.length > 0 ? 1 : 0) + word.length > maxChars) break;
      length += (words.length > 0 ? 1 : 0) + word.length;
      words.push(word);
      seen.add(word.toLowerCase());
    }
    const merged = words.join(" ");
    if (merged === (row.terms ?? "")) return false;
    cached(this.db, "UPDATE memories SET search_terms = ? WHERE id = ?").run(merged, id);
    return true;
  }

  /** Live memories up to `upTo` without concept words, after `afterId` in id order (the concepts backfill). */
  withoutConcepts(afterId: number, upTo: number, limit: number): { id: number; content: string }[] {
    return cached(
      this.db,
      `SELECT id, content FROM memories WHERE id > ? AND id <= ? AND deleted_at IS NULL AND concept_terms IS NULL
         ORDER BY id LIMIT ?`,
    ).all(afterId, upTo, limit) as { id: number; content: string }[];
  }

  /** Sets a memory's concept words; the update trigger re-indexes its full-text row. */
  setConceptTerms(id: number, terms: string): void {
    cached(this.db, "UPDATE memories SET concept_terms = ? WHERE id = ?").run(terms, id);
  }

  tombstone(id: number, now: number): boolean {
    return (
      cached(this.db, "UPDATE memories SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL").run(
        now,
        now,
        id,
      ).changes > 0
    );
  }

  /** Tombstones a live memory as replaced by `byId`; false when it was not live. */
  supersede(id: number, byId: number, now: number): boolean {
    return (
      cached(
        this.db,
        `UPDATE memories SET deleted_at = @now, updated_at = @now, superseded_by = @byId, superseded_at = @now
           WHERE id = @id AND deleted_at IS NULL`,
      ).run({ id, byId, now }).changes > 0
    );
  }

  /** Brings a tombstoned (forgotten or superseded) memory back; false when a live twin holds its hash. */
  restore(id: number, now: number): boolean {
    const row = this.get(id);
    if (!row || row.deletedAt === null || this.findLiveByHash(row.scope, row.contentHash) !== undefined) return false;
    return (
      cached(
        this.db,
        `UPDATE memories SET deleted_at = NULL, superseded_by = NULL, superseded_at = NULL, updated_at = @now
           WHERE id = @id AND deleted_at IS NOT NULL`,
      ).run({ id, now }).changes > 0
    );
  }

  nameSuccessor(id: number, byId: number, now: number): boolean {
    return (
      cached(
        this.db,
        `UPDATE memories SET superseded_by = @byId, superseded_at = @now, updated_at = @now
           WHERE id = @id AND deleted_at IS NOT NULL`,
      ).run({ id, byId, now }).changes > 0
    );
  }

  /** Memories that `ids` replaced, newest replacement first: what `--include-superseded` shows. */
  supersededBy(ids: number[]): MemoryRecord[] {
    if (ids.length === 0) return [];
    return (
      cached(
        this.db,
        `SELECT * FROM memories WHERE superseded_by IN (SELECT value FROM json_each(?))
           ORDER BY superseded_at DESC, id DESC`,
      ).all(JSON.stringify(ids)) as MemoryRowDb[]
    ).map(toRecord);
  }

  /** Tombstones (superseded or forgotten) in the scopes that no live memory restates, newest first. */
  staleIn(scopes: string[] | "all", limit: number): MemoryRecord[] {
    const inScopes = scopes === "all" ? "" : " AND m.scope IN (SELECT value FROM json_each(@scopes))";
    return (
      cached(
        this.db,
        `SELECT m.* FROM memories m WHERE m.deleted_at IS NOT NULL${inScopes}
           AND NOT EXISTS (SELECT 1 FROM memories l
             WHERE l.scope = m.scope AND l.content_hash = m.content_hash AND l.deleted_at IS NULL)
           ORDER BY m.deleted_at DESC, m.id DESC LIMIT @limit`,
      ).all(scopes === "all" ? { limit } : { scopes: JSON.stringify(scopes), limit }) as MemoryRowDb[]
    ).map(toRecord);
  }

  /** Per scope: how many tombstones and the newest, which changes on every supersede, forget and restore. */
  tombstoneMarks(): Record<string, string> {
    const rows = cached(
      this.db,
      "SELECT scope, count(*) AS n, max(deleted_at) AS at FROM memories WHERE deleted_at IS NOT NULL GROUP BY scope",
    ).all() as { scope: string; n: number; at: number }[];
    return Object.fromEntries(rows.map((row) => [row.scope, `${row.n}:${row.at}`]));
  }

  setEmbeddingModel(id: number, model: string): void {
    cached(this.db, "UPDATE memories SET embedding_model = ? WHERE id = ?").run(model, id);
  }

  bumpUsage(ids: number[], now: number): void {
    if (ids.length === 0) return;
    cached(
      this.db,
      "UPDATE memories SET usage_count = usage_count + 1, last_used_at = ? WHERE id IN (SELECT value FROM json_each(?))",
    ).run(now, JSON.stringify(ids));
  }

  /** Live rows of the same session whose item ranges start within `window` items of each anchor. */
  sessionNeighbors(anchors: { sessionId: string; item: number; scope: string }[], window: number): NeighborRow[] {
    if (anchors.length === 0) return [];
    return cached(
      this.db,
      `SELECT DISTINCT m.id, m.session_id AS sessionId, m.item_from AS itemFrom, m.scope FROM json_each(?) a
         JOIN memories m ON m.session_id = json_extract(a.value, '$.sessionId')
          AND m.scope = json_extract(a.value, '$.scope')
          AND m.item_from BETWEEN json_extract(a.value, '$.item') - ? AND json_extract(a.value, '$.item') + ?
         WHERE m.deleted_at IS NULL`,
    ).all(JSON.stringify(anchors), window, window) as NeighborRow[];
  }

  /** Query words that name an author (`who`, or its first word) of live memories in the scopes. */
  authorsNamed(words: string[], scopes: string[] | "all"): string[] {
    const scoped = scopes !== "all";
    const statement = cached(
      this.db,
      // One index range covers "jane" and "jane doe" (and nothing like "janet"): " " sorts below "~".
      // INDEXED BY: left alone, the planner walks the whole scope instead of the few author rows.
      `SELECT 1 FROM memories INDEXED BY idx_memories_who WHERE lower(who) >= @w AND lower(who) <= @w || ' ~'
       AND who IS NOT NULL AND deleted_at IS NULL ${scoped ? "AND scope IN (SELECT value FROM json_each(@scopes))" : ""} LIMIT 1`,
    );
    const scopesJson = scoped ? JSON.stringify(scopes) : undefined;
    return words.filter((w) => statement.get(scoped ? { w, scopes: scopesJson } : { w }) !== undefined);
  }

  counts(): { live: number; deleted: number; byScope: Record<string, number> } {
    const rows = cached(
      this.db,
      "SELECT scope, deleted_at IS NULL AS live, count(*) AS n FROM memories GROUP BY scope, live",
    ).all() as { scope: string; live: number; n: number }[];
    const byScope: Record<string, number> = {};
    let live = 0;
    let deleted = 0;
    for (const row of rows) {
      if (row.live) {
        live += row.n;
        byScope[row.scope] = row.n;
      } else deleted += row.n;
    }
    return { live, deleted, byScope };
  }
}
