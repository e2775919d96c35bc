import type { Database } from "better-sqlite3";
import type { VectorIndexRepo } from "./contracts/vectors.js";
import { cached } from "./statements.js";
import { binaryQuantize } from "./vectorCodec.js";

/**
 * Candidate generation for the vector leg. With sqlite-vec loaded, a `vec0` table holds one bit per
 * dimension per memory (48 bytes at 384 dimensions) partitioned by scope, so a KNN scans only the
 * wanted scopes with popcount Hamming distance: 1M memories are ~48 MB scanned in tens of ms, where
 * float vectors would be 1.5 GB and ~400 ms. The caller rescores the candidates with the exact float
 * vectors (see vectorLeg.ts), which restores the ranking the bits blur. Without sqlite-vec the index is
 * absent and the vector leg scans the float vectors of the wanted scopes (fine up to ~20k per scope).
 */
export class VectorIndex implements VectorIndexRepo {
  private readonly table: string;
  private ready = false;

  constructor(
    private readonly db: Database,
    readonly dimensions: number,
    readonly enabled: boolean,
  ) {
    this.table = `memory_vec_bit${dimensions}`;
  }

  private ensure(): void {
    if (this.ready || !this.enabled) return;
    this.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${this.table} USING vec0(
         memory_id INTEGER PRIMARY KEY, scope TEXT PARTITION KEY, embedding bit[${this.dimensions}])`,
    );
    this.ready = true;
  }

  private exists(): boolean {
    return cached(this.db, "SELECT 1 FROM sqlite_master WHERE name = ?").get(this.table) !== undefined;
  }

  /** Call inside the write transaction that stores the memory; `replace` when it may be indexed already. */
  upsert(memoryId: number, scope: string, vector: Float32Array, replace = true): void {
    if (!this.enabled || vector.length !== this.dimensions) return;
    this.ensure();
    if (replace) cached(this.db, `DELETE FROM ${this.table} WHERE memory_id = ?`).run(BigInt(memoryId));
    cached(this.db, `INSERT INTO ${this.table} (memory_id, scope, embedding) VALUES (?, ?, vec_bit(?))`).run(
      BigInt(memoryId),
      scope,
      binaryQuantize(vector),
    );
  }

  remove(memoryId: number): void {
    if (!this.enabled) return;
    this.ensure();
    cached(this.db, `DELETE FROM ${this.table} WHERE memory_id = ?`).run(BigInt(memoryId));
  }

  /** Up to `limit` nearest memory ids by Hamming distance, per scope (partitions are searched one by one). */
  candidates(query: Float32Array, scopes: string[] | "all", limit: number): number[] {
    if (!this.enabled) return [];
    // A read creates nothing: no table yet means nothing indexed (and a read-only store stays readable).
    if (!this.ready && !this.exists()) return [];
    const bits = binaryQuantize(query);
    const sql = `SELECT memory_id AS id FROM ${this.table} WHERE embedding MATCH vec_bit(?) AND k = ?`;
    if (scopes === "all") {
      return (cached(this.db, sql).all(bits, limit) as { id: number }[]).map((r) => r.id);
    }
    const statement = cached(this.db, `${sql} AND scope = ?`);
    const ids: number[] = [];
    for (const scope of scopes)
      for (const row of statement.all(bits, limit, scope) as { id: number }[]) ids.push(row.id);
    return ids;
  }
}
