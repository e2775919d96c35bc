import type { Database } from "better-sqlite3";

/**
 * Groups the writes of several consecutive files into one transaction. Each commit rewrites the index
 * pages it touched, so committing per file multiplies the bytes written; a batch is still bounded (in
 * files, bytes and time) so the write lock is never held long, and each file's own writes stay atomic
 * as a savepoint inside it. A crash loses at most the open batch, which the next scan reads again.
 */
export class WriteBatch {
  private files = 0;
  private bytes = 0;
  private openedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly limits = { files: 64, bytes: 16 * 1024 * 1024, ms: 250 },
  ) {}

  /** Runs one file's writes inside the current batch, opening one when needed. */
  add<T>(size: number, write: () => T): T {
    if (!this.db.inTransaction) {
      this.db.exec("BEGIN IMMEDIATE");
      this.files = 0;
      this.bytes = 0;
      this.openedAt = Date.now();
    }
    const result = write();
    this.files += 1;
    this.bytes += size;
    if (
      this.files >= this.limits.files ||
      this.bytes >= this.limits.bytes ||
      Date.now() - this.openedAt >= this.limits.ms
    ) {
      this.commit();
    }
    return result;
  }

  /** Commits a batch that has been open for a while, before the caller waits for more input. */
  commitIfOlderThan(ms: number): void {
    if (this.db.inTransaction && Date.now() - this.openedAt >= ms) this.commit();
  }

  commit(): void {
    if (this.db.inTransaction) this.db.exec("COMMIT");
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
  }
}
