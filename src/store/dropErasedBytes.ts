import type { Database } from "better-sqlite3";
import { withWriteTx } from "./tx.js";

export interface ErasedBytesReport {
  /** Whether the write-ahead log was emptied; false while another process still reads an older snapshot. */
  walEmptied: boolean;
  /** Whether the whole file was rewritten (VACUUM). */
  rewritten: boolean;
}

/**
 * After rows were erased, makes sure their text is gone from the files too, not only from the tables.
 * `secure_delete` (set on every connection) zeroes a deleted row where it stood and every page that
 * becomes free, but two copies outlive a delete: the full-text indexes keep a deleted memory's terms in
 * their segments until those are merged (contentless tables only record the delete), so both indexes
 * are merged into one segment each ('optimize'), which deletes, and so zeroes, the old blocks; and the
 * write-ahead log keeps the pages as they were before, until a checkpoint truncates it. `rewrite` also
 * rebuilds the whole file (VACUUM): free pages left by a cairn that did not zero them are gone then too,
 * and so is the old copy of a row that a page split moved, left in the unused space of a page still in
 * use, which no delete reaches (about one purged memory in 600 in `npm run bench:year`). Every erasure a
 * user asks for (purge, clear, exclusion, retention's purge) rewrites; about 27 ms per MB of store.
 * Call outside any transaction.
 */
export function dropErasedBytes(db: Database, options: { rewrite?: boolean } = {}): ErasedBytesReport {
  withWriteTx(db, () => {
    db.prepare("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')").run();
    db.prepare("INSERT INTO memory_hints_fts(memory_hints_fts) VALUES ('optimize')").run();
  });
  if (options.rewrite) db.exec("VACUUM");
  const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number; log: number }>;
  return { walEmptied: result === undefined || (result.busy === 0 && result.log <= 0), rewritten: !!options.rewrite };
}
