import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { CairnError, errorMessage } from "../util/errors.js";
import { migrate } from "./migrate.js";
import { migrations } from "./migrations/index.js";

export interface OpenedDatabase {
  db: Database;
  /** null when sqlite-vec loaded; otherwise why it did not (vector search then falls back to a scan). */
  vecError: string | null;
}

const require = createRequire(import.meta.url);

/** Opens (creating if needed) the store with WAL, a busy timeout, foreign keys and the newest schema. */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): OpenedDatabase {
  const inMemory = path === ":memory:";
  if (!inMemory) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const isNew = !inMemory && !existsSync(path);
  let db: Database;
  try {
    db = new BetterSqlite3(path, { readonly: options.readonly ?? false });
    db.pragma("busy_timeout = 10000");
    if (!options.readonly) db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("cache_size = -32000");
    // Statement and savepoint journals (every multi-row insert and every file's savepoint in a scan
    // writes one) stay in memory instead of temp files: a third of the write syscalls of an import.
    db.pragma("temp_store = MEMORY");
    db.pragma("wal_autocheckpoint = 16000");
    db.pragma("foreign_keys = ON");
  } catch (error) {
    throw new CairnError("store_unreadable", `cannot open the store at ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  if (isNew) chmodSync(path, 0o600);
  const vecError = loadSqliteVec(db);
  try {
    if (!options.readonly) migrate(db, migrations);
  } catch (error) {
    db.close();
    if (error instanceof CairnError) throw error;
    throw new CairnError("store_unreadable", `cannot prepare the store at ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  return { db, vecError };
}

function loadSqliteVec(db: Database): string | null {
  try {
    const sqliteVec = require("sqlite-vec") as { load(db: Database): void };
    sqliteVec.load(db);
    return null;
  } catch (error) {
    return errorMessage(error);
  }
}
