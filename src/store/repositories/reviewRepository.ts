import type { Database } from "better-sqlite3";
import { guardOptional, guardText } from "../../redact/guard.js";
import type {
  Doubt,
  DoubtedPair,
  NewReviewFlag,
  ReviewFlag,
  ReviewRepo,
  ReviewResolution,
} from "../contracts/reviews.js";
import { cached } from "../statements.js";
import { isNewer } from "../types/memoryRecord.js";

interface ReviewRowDb {
  id: number;
  memory_id: number;
  related_id: number | null;
  proposed_content: string | null;
  reason: string;
  detector: string;
  created_at: number;
  resolved_at: number | null;
  resolution: string | null;
}

const toFlag = (row: ReviewRowDb): ReviewFlag => ({
  id: row.id,
  memoryId: row.memory_id,
  relatedId: row.related_id,
  proposedContent: row.proposed_content,
  reason: row.reason,
  detector: row.detector,
  createdAt: row.created_at,
  resolvedAt: row.resolved_at,
  resolution: row.resolution,
});

/** An open flag with both of its live memories' dates. */
interface PairRow {
  flag: number;
  aId: number;
  aOccurred: number | null;
  aCreated: number;
  bId: number;
  bOccurred: number | null;
  bCreated: number;
}

/** SQL for memory_reviews. Proposed text is guarded like every text that enters the store. */
export class ReviewRepository implements ReviewRepo {
  constructor(private readonly db: Database) {}

  add(flag: NewReviewFlag): number {
    const result = cached(
      this.db,
      `INSERT INTO memory_reviews (memory_id, related_id, proposed_content, reason, detector, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(
      flag.memoryId,
      flag.relatedId ?? null,
      guardOptional(flag.proposedContent ?? null),
      guardText(flag.reason),
      flag.detector,
      flag.now,
    );
    return Number(result.lastInsertRowid);
  }

  get(id: number): ReviewFlag | undefined {
    const row = cached(this.db, "SELECT * FROM memory_reviews WHERE id = ?").get(id) as ReviewRowDb | undefined;
    return row ? toFlag(row) : undefined;
  }

  open(options: { scopes?: string[]; limit?: number } = {}): ReviewFlag[] {
    const scoped = options.scopes !== undefined;
    const rows = cached(
      this.db,
      `SELECT r.* FROM memory_reviews r ${scoped ? "JOIN memories m ON m.id = r.memory_id" : ""}
         WHERE r.resolved_at IS NULL ${scoped ? "AND m.scope IN (SELECT value FROM json_each(@scopes))" : ""}
         ORDER BY r.id LIMIT @limit`,
    ).all({ limit: options.limit ?? -1, ...(scoped ? { scopes: JSON.stringify(options.scopes) } : {}) });
    return (rows as ReviewRowDb[]).map(toFlag);
  }

  hasOpen(memoryId: number, relatedId: number): boolean {
    const row = cached(
      this.db,
      `SELECT 1 FROM memory_reviews
         WHERE memory_id = ? AND related_id = ? AND resolved_at IS NULL LIMIT 1`,
    ).get(memoryId, relatedId);
    return row !== undefined;
  }

  doubtsAbout(memoryIds: number[]): Map<number, Doubt> {
    if (memoryIds.length === 0) return new Map();
    const wanted = new Set(memoryIds);
    const out = new Map<number, Doubt>();
    const pairs = this.livePairs(
      "AND (r.memory_id IN (SELECT value FROM json_each(@ids)) OR r.related_id IN (SELECT value FROM json_each(@ids))) ORDER BY r.id",
      { ids: JSON.stringify(memoryIds) },
    );
    for (const { flag, older, newer } of pairs)
      if (wanted.has(older) && !out.has(older)) out.set(older, { newer, flag });
    return out;
  }

  openPairs(options: { scopes?: string[]; limit: number }): DoubtedPair[] {
    const scoped = options.scopes !== undefined;
    return this.livePairs(
      `${scoped ? "AND a.scope IN (SELECT value FROM json_each(@scopes))" : ""} ORDER BY r.id DESC LIMIT @limit`,
      { limit: options.limit, ...(scoped ? { scopes: JSON.stringify(options.scopes) } : {}) },
    );
  }

  /**
   * Open flags between two live memories, each oriented: either side of a flag may be the statement
   * said first (a fact extracted late is stored after one said later), so both are read and the older
   * (`isNewer`) is the doubted one. `where` goes on after the open-flag condition (`a` is the flagged memory).
   */
  private livePairs(where: string, params: Record<string, unknown>): DoubtedPair[] {
    const rows = cached(
      this.db,
      `SELECT r.id AS flag, a.id AS aId, a.occurred_at AS aOccurred, a.created_at AS aCreated,
              b.id AS bId, b.occurred_at AS bOccurred, b.created_at AS bCreated
         FROM memory_reviews r
         JOIN memories a ON a.id = r.memory_id AND a.deleted_at IS NULL
         JOIN memories b ON b.id = r.related_id AND b.deleted_at IS NULL
         WHERE r.resolved_at IS NULL ${where}`,
    ).all(params) as PairRow[];
    return rows.map((row) => {
      const a = { id: row.aId, occurredAt: row.aOccurred, createdAt: row.aCreated };
      const b = { id: row.bId, occurredAt: row.bOccurred, createdAt: row.bCreated };
      const [older, newer] = isNewer(a, b) ? [b, a] : [a, b];
      return { flag: row.flag, older: older.id, newer: newer.id };
    });
  }

  marks(): Record<string, string> {
    const rows = cached(
      this.db,
      `SELECT m.scope AS scope, count(*) AS n, sum(r.resolved_at IS NULL) AS open, max(r.id) AS last,
              max(coalesce(r.resolved_at, 0)) AS resolved
         FROM memory_reviews r JOIN memories m ON m.id = r.memory_id GROUP BY m.scope`,
    ).all() as { scope: string; n: number; open: number; last: number; resolved: number }[];
    return Object.fromEntries(rows.map((row) => [row.scope, `${row.n}:${row.open}:${row.last}:${row.resolved}`]));
  }

  countOpen(): number {
    return (
      cached(this.db, "SELECT count(*) AS n FROM memory_reviews WHERE resolved_at IS NULL").get() as { n: number }
    ).n;
  }

  resolve(id: number, resolution: ReviewResolution, now: number): boolean {
    return (
      cached(
        this.db,
        "UPDATE memory_reviews SET resolved_at = ?, resolution = ? WHERE id = ? AND resolved_at IS NULL",
      ).run(now, resolution, id).changes > 0
    );
  }

  resolveAbout(memoryId: number, resolution: ReviewResolution, now: number): number {
    return cached(
      this.db,
      "UPDATE memory_reviews SET resolved_at = ?, resolution = ? WHERE memory_id = ? AND resolved_at IS NULL",
    ).run(now, resolution, memoryId).changes;
  }
}
