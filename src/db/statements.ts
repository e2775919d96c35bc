import type { Database, Statement } from "better-sqlite3";

/**
 * Prepares each SQL text once per connection. Preparing dominates the cost of small statements on the
 * import hot path; this caches compiled statements, never data.
 */
export class Statements {
  private readonly cache = new Map<string, Statement>();

  constructor(readonly db: Database) {}

  get(sql: string): Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }
}
