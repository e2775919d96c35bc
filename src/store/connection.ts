import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { CairnError, errorMessage } from "../util/errors.js";
import { migrate } from "./migrate.js";
import { migrations } from "./migrations/index.js";
import { BUSY_RETRY_MS, retryBusy } from "./retryBusy.js";
import { damagedStoreError, isMarkedDamaged, storeFaultOf } from "./storeFault.js";
import { rememberOpenedFile } from "./storeIdentity.js";

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
    db.pragma(`busy_timeout = ${BUSY_RETRY_MS}`);
    if (!options.readonly) retryBusy(() => db.pragma("journal_mode = WAL"));
    db.pragma("synchronous = NORMAL");
    db.pragma("cache_size = -32000");
    // Statement and savepoint journals (every multi-row insert and every file's savepoint in a scan
    // writes one) stay in memory instead of temp files: a third of the write syscalls of an import.
    db.pragma("temp_store = MEMORY");
    db.pragma("wal_autocheckpoint = 16000");
    db.pragma("foreign_keys = ON");
    // Erased text must leave the file: deleted rows and freed pages are overwritten with zeros (see
    // dropErasedBytes for the copies this does not reach). Cost measured in the README.
    db.pragma("secure_delete = ON");
  } catch (error) {
    throw new CairnError("store_unreadable", `cannot open the store at ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  if (isNew) chmodSync(path, 0o600);
  if (!inMemory) rememberOpenedFile(db, path);
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

/**
 * Opens an existing store for reading only: no file is created, no migration runs, no extension is
 * loaded, and a lock is waited on at most `busyTimeoutMs`. A store at another schema version than this
 * cairn's is refused, since the queries are written for this one.
 */
export function openDatabaseReadOnly(path: string, options: { busyTimeoutMs: number }): Database {
  if (isMarkedDamaged(path)) throw damagedStoreError(path);
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true, timeout: options.busyTimeoutMs });
    const version = db.pragma("user_version", { simple: true }) as number;
    const latest = migrations.at(-1)?.version ?? 0;
    if (version > latest) {
      throw new CairnError(
        "store_too_new",
        `the store at ${path} was written by a newer cairn (schema ${version}, this one knows ${latest}); upgrade cairn`,
      );
    }
    if (version < latest) {
      throw new CairnError(
        "store_unreadable",
        `the store at ${path} has an older schema (${version} of ${latest}); run cairn status once to upgrade it`,
      );
    }
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof CairnError) throw error;
    if (storeFaultOf(error) === "damaged") throw damagedStoreError(path, error);
    throw new CairnError("store_unreadable", `cannot read the store at ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
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
