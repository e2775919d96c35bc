import type { Database, Statement } from "better-sqlite3";

/** Distinct SQL texts kept per connection; the repositories use a few dozen, so this is only a guard. */
const LIMIT = 500;

const caches = new WeakMap<Database, Map<string, Statement>>();

/**
 * A prepared statement for `sql` on `db`, compiled once per connection. Preparing costs tens of
 * microseconds, which dominates small statements on the import and bulk-remember paths. This caches
 * compiled statements, never data; statements are never iterated, so callers can share them.
 */
export function cached(db: Database, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    if (cache.size >= LIMIT) cache.clear();
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}

/** The same cache bound to one connection, for repositories that hold their database. */
export class Statements {
  constructor(readonly db: Database) {}

  get(sql: string): Statement {
    return cached(this.db, sql);
  }
}
