import type { Database } from "better-sqlite3";

/**
 * Runs `fn` in one IMMEDIATE transaction: the write lock is taken up front, so two writers never
 * deadlock upgrading a read lock. Never await inside `fn`: no model, embedding or network call
 * belongs in a write transaction.
 */
export function withWriteTx<T>(db: Database, fn: () => T): T {
  return db.transaction(fn).immediate();
}
