import { statSync } from "node:fs";
import type { Database } from "better-sqlite3";
import { CairnError } from "../util/errors.js";
import { damagedStoreError, isMarkedDamaged } from "./storeFault.js";

/** The file a connection opened: its path and the device and inode it had then. */
interface OpenedFile {
  path: string;
  dev: bigint;
  ino: bigint;
}

const opened = new WeakMap<Database, OpenedFile>();

/**
 * Remembers which file `db` opened at `path`, so that a write can tell when the path has since been
 * given to another file (a `cairn doctor --repair` swapped a rebuilt store in, a backup was restored):
 * SQLite keeps writing into the file it opened, which no command reads any more.
 */
export function rememberOpenedFile(db: Database, path: string): void {
  const stat = statSync(path, { bigint: true });
  opened.set(db, { path, dev: stat.dev, ino: stat.ino });
}

/**
 * Refuses a write on `db` when another process marked its store damaged, or its path now names
 * another file. Two small stats per write transaction: a long-lived process (the daemon, the MCP
 * server) learns of a repair or of damage another command met before it writes, not after it answered.
 */
export function assertStoreStillOpen(db: Database): void {
  const file = opened.get(db);
  if (!file) return;
  if (isMarkedDamaged(file.path)) throw damagedStoreError(file.path);
  if (!isSameFile(file)) throw replacedStoreError(file.path);
}

/** Whether the store `db` opened is still the file at its path (true for a connection not tracked). */
export function storeStillAtPath(db: Database): boolean {
  const file = opened.get(db);
  return file === undefined || isSameFile(file);
}

function isSameFile(file: OpenedFile): boolean {
  const now = statSync(file.path, { bigint: true, throwIfNoEntry: false });
  return now !== undefined && now.dev === file.dev && now.ino === file.ino;
}

export function replacedStoreError(path: string): CairnError {
  return new CairnError(
    "store_replaced",
    `the store at ${path} was replaced by another file (a 'cairn doctor --repair' or a restore) while this process had it open; nothing was written. Run the command again (restart 'cairn serve' or the MCP server if it says this)`,
  );
}
