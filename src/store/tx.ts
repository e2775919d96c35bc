import type { Database } from "better-sqlite3";
import { storeFaultOf } from "./storeFault.js";
import { assertStoreStillOpen } from "./storeIdentity.js";

/** The store-level error (full disk, damaged or read-only store) the last write transaction of a connection met. */
const lastStoreFault = new WeakMap<Database, unknown>();

/** Connections inside a write transaction whose store was checked when it began. */
const checkedTx = new WeakSet<Database>();

function checkedRun<T>(db: Database, fn: () => T): T {
  checkedTx.add(db);
  try {
    return db.transaction(fn).immediate();
  } finally {
    checkedTx.delete(db);
  }
}

/**
 * Runs `fn` in one IMMEDIATE transaction: the write lock is taken up front, so two writers never
 * deadlock upgrading a read lock. Never await inside `fn`: no model, embedding or network call
 * belongs in a write transaction. A failure of the store itself is remembered for the connection
 * (see takeStoreFault) until a later write transaction succeeds. A store marked damaged or replaced by
 * another file since the connection opened it is refused before anything is written.
 */
export function withWriteTx<T>(db: Database, fn: () => T): T {
  try {
    // A nested call is a savepoint of a write transaction that already checked: a batch of writes
    // with a savepoint per row paid the two stats per row.
    const outermost = !checkedTx.has(db);
    if (outermost) assertStoreStillOpen(db);
    const result = outermost ? checkedRun(db, fn) : db.transaction(fn).immediate();
    lastStoreFault.delete(db);
    return result;
  } catch (error) {
    if (storeFaultOf(error)) lastStoreFault.set(db, error);
    throw error;
  }
}

/**
 * The store fault the last write transaction on `db` met, if any, and forgets it. The job queue asks
 * before recording a job failure: a job whose result could not be stored because the disk is full did
 * not fail, so its attempt must not be spent.
 */
export function takeStoreFault(db: Database): unknown {
  const fault = lastStoreFault.get(db);
  lastStoreFault.delete(db);
  return fault;
}
