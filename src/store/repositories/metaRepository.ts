import type { Database } from "better-sqlite3";
import type { MetaRepo } from "../contracts/meta.js";
import { Statements } from "../statements.js";

/** A small key/value table for process-wide state (watermarks, last outcomes, budgets). */
export class MetaRepository implements MetaRepo {
  private readonly sql: Statements;

  constructor(db: Database) {
    this.sql = new Statements(db);
  }

  get<T>(key: string): T | undefined {
    const row = this.sql.get("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    this.sql
      .get("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
      .run(key, JSON.stringify(value));
  }

  delete(key: string): void {
    this.sql.get("DELETE FROM meta WHERE key = ?").run(key);
  }
}
