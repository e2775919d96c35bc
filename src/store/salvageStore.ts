import { closeSync, copyFileSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { CairnError, errorMessage } from "../util/errors.js";
import { openDatabase } from "./connection.js";
import { damagedMarkerPath, isMarkedDamaged, markDamaged, storeFaultOf } from "./storeFault.js";

export interface TableSalvage {
  table: string;
  saved: number;
  /** Rows the damaged store said it had; null when even counting them failed. */
  total: number | null;
  /** Read errors met (each skips the rows it hides). */
  errors: number;
}

export interface SalvageReport {
  /** Where the damaged store is kept (with its -wal beside it when it had one). */
  damagedPath: string;
  tables: TableSalvage[];
  saved: number;
  /** Rows known lost; null when a table could not be counted. */
  lost: number | null;
  /** Sessions or items were lost: the next scan re-reads every transcript to bring them back. */
  rescan: boolean;
  /** Why the damaged file could not be opened at all (nothing saved then); null otherwise. */
  unreadable: string | null;
}

export interface SalvageOptions {
  now?: Date;
  /** Aborting (Ctrl-C) stops the copy: the damaged store stays in place, marked, and the copy is removed. */
  signal?: AbortSignal;
  /** Said in the refusal when another process has the store open (what holds it, when known). */
  holders?: string[];
}

/** Tables that a rescan of the transcripts fills again. */
const TRANSCRIPT_TABLES = new Set(["sessions", "items"]);
/** Rows read per query; a read error loses at most the rows the damaged page hides, not the batch. */
const BATCH = 500;

/** The store being rebuilt, beside the damaged one (same folder, so the final rename is atomic). */
export function repairPath(path: string): string {
  return `${path}.repairing`;
}

/**
 * Builds a fresh store from every row of the damaged store at `path` that can still be read, table by
 * table, in a temporary file beside it, then swaps it in with one rename. Until that rename the damaged
 * store stays at `path` with its damage marker, so a repair killed or interrupted at any point leaves
 * either the damaged store, still refused by every command, or the complete new one; never a store
 * that looks healthy with rows missing. The damaged file is kept as `<name>.damaged-<UTC time>`.
 * Refused while another process has the store open: it would go on writing into the damaged file.
 */
export async function salvageStore(path: string, options: SalvageOptions = {}): Promise<SalvageReport> {
  const now = options.now ?? new Date();
  const damagedPath = `${path}.damaged-${now.toISOString().replace(/[:.]/g, "-")}`;
  const report: SalvageReport = { damagedPath, tables: [], saved: 0, lost: 0, rescan: false, unreadable: null };
  // Every command refuses the store from here until the swap, whatever happens to this process.
  if (!isMarkedDamaged(path)) markDamaged(path, "found damaged by cairn doctor; repair started");
  const old = openExclusively(path, report, options.holders ?? []);
  const temp = repairPath(path);
  let fresh: Database | undefined;
  try {
    removeStore(temp);
    fresh = openDatabase(temp).db;
    const checkAbort = () => {
      if (options.signal?.aborted) throw interruptedError(path);
    };
    if (old) await copyAll(old, fresh, report, checkAbort);
    checkAbort();
    // Self-contained before the swap: nothing of it may stay in a WAL the rename leaves behind.
    fresh.pragma("wal_checkpoint(TRUNCATE)");
    fresh.close();
    fsyncFile(temp);
  } catch (error) {
    fresh?.close();
    old?.close();
    removeStore(temp);
    throw error;
  }
  swapIn({ path, temp, damagedPath, old });
  return report;
}

/**
 * Opens the damaged store holding SQLite's exclusive lock until the swap: taking it fails while any
 * other connection (a daemon, an MCP server, a run) has the store open, and holding it keeps new ones
 * out. Undefined when the file cannot be read as a database at all (nothing can be saved then).
 */
function openExclusively(path: string, report: SalvageReport, holders: string[]): Database | undefined {
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(path, { fileMustExist: true, timeout: 0 });
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN IMMEDIATE");
    db.exec("ROLLBACK");
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
    return db;
  } catch (error) {
    db?.close();
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("SQLITE_BUSY")) throw storeInUseError(path, holders);
    if (storeFaultOf(error) !== "damaged" && existsSync(path)) throw error;
    report.unreadable = errorMessage(error);
    report.lost = null;
    report.rescan = true;
    return undefined;
  }
}

export function storeInUseError(path: string, holders: string[]): CairnError {
  const what =
    holders.length > 0
      ? holders.join(" and ")
      : "another process (a 'cairn serve' daemon, a 'cairn mcp' server or a 'cairn run')";
  return new CairnError(
    "store_in_use",
    `${what} has the store at ${path} open; stop it, then run 'cairn doctor --repair' again (repairing now would leave it writing into the damaged file)`,
  );
}

async function copyAll(old: Database, fresh: Database, report: SalvageReport, checkAbort: () => void): Promise<void> {
  fresh.pragma("foreign_keys = OFF");
  for (const table of copyableTables(fresh)) {
    const salvage = await copyTable(old, fresh, table, checkAbort);
    report.tables.push(salvage);
    report.saved += salvage.saved;
    const lost = salvage.total === null ? null : Math.max(0, salvage.total - salvage.saved);
    report.lost = report.lost === null || lost === null ? null : report.lost + lost;
    if (TRANSCRIPT_TABLES.has(table) && (lost === null || lost > 0 || salvage.errors > 0)) report.rescan = true;
  }
  // Vectors live in an index the copy does not carry over; the embedding tracker rebuilds it from the
  // copied embeddings cache once memories no longer claim to be embedded.
  fresh.exec("UPDATE memories SET embedding_model = NULL");
  // Forgetting which transcripts were read makes the next scan import every one again.
  if (report.rescan) fresh.exec("DELETE FROM source_files");
  fresh.pragma("foreign_keys = ON");
}

function interruptedError(path: string): CairnError {
  return new CairnError(
    "cancelled",
    `repair interrupted; nothing changed: the damaged store is still at ${path}, marked damaged, and the partial copy was removed. Run 'cairn doctor --repair' again`,
    { exitCode: 130 },
  );
}

/**
 * The swap, in an order that a kill at any step leaves safe: the damaged files get their kept name
 * (hard links, so `path` still holds the damaged store), the exclusive connection closes, the damaged
 * store's WAL and shared memory go (a WAL left beside the new file would be replayed into it), the new
 * store is renamed over `path`, and only then is the damage marker removed.
 */
function swapIn(files: { path: string; temp: string; damagedPath: string; old: Database | undefined }): void {
  const { path, temp, damagedPath, old } = files;
  keepAside(path, damagedPath);
  keepAside(`${path}-wal`, `${damagedPath}-wal`);
  old?.close();
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
  renameSync(temp, path);
  fsyncDir(dirname(path));
  rmSync(damagedMarkerPath(path), { force: true });
  fsyncDir(dirname(path));
}

function keepAside(from: string, to: string): void {
  if (!existsSync(from)) return;
  try {
    linkSync(from, to);
  } catch {
    // A file system without hard links: a copy keeps the same bytes.
    copyFileSync(from, to);
  }
}

function removeStore(path: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
}

function fsyncFile(path: string): void {
  const fd = openSync(path, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a rename in `dir` durable; best-effort where directories cannot be opened (Windows). */
function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not supported here: the rename is still atomic, only its durability after power loss is not forced.
  }
}

/** Ordinary tables of the fresh schema (not the shadow tables of full-text or vector indexes). */
function copyableTables(db: Database): string[] {
  const rows = db.pragma("table_list") as Array<{ schema: string; name: string; type: string }>;
  return rows
    .filter((row) => row.schema === "main" && row.type === "table" && !row.name.startsWith("sqlite_"))
    .map((row) => row.name);
}

function columnsOf(db: Database, table: string): string[] {
  return (db.pragma(`table_info(${quote(table)})`) as Array<{ name: string }>).map((row) => row.name);
}

async function copyTable(old: Database, fresh: Database, table: string, checkAbort: () => void): Promise<TableSalvage> {
  const salvage: TableSalvage = { table, saved: 0, total: null, errors: 0 };
  let columns: string[];
  try {
    const present = new Set(columnsOf(old, table));
    columns = columnsOf(fresh, table).filter((column) => present.has(column));
  } catch {
    // The table's definition is unreadable: nothing of it can be saved.
    salvage.errors += 1;
    return salvage;
  }
  if (columns.length === 0) return salvage;
  try {
    salvage.total = (old.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n;
  } catch {
    salvage.errors += 1;
  }
  const list = columns.map(quote).join(", ");
  const insert = fresh.prepare(
    `INSERT OR REPLACE INTO ${quote(table)} (${list}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  const page = old.prepare(
    `SELECT rowid AS _rowid, ${list} FROM ${quote(table)} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  );
  const one = old.prepare(`SELECT ${list} FROM ${quote(table)} WHERE rowid = ?`);
  const save = (row: Record<string, unknown>) => {
    try {
      insert.run(...columns.map((column) => row[column]));
      salvage.saved += 1;
    } catch {
      salvage.errors += 1;
    }
  };
  // cairn never writes explicit rowids, so they start at 1.
  let last = 0;
  const end = lastRowid(old, table);
  for (;;) {
    // Between batches the event loop runs, so a Ctrl-C is heard while a large store is copied.
    await new Promise((resolve) => setImmediate(resolve));
    checkAbort();
    let rows: Array<Record<string, unknown>>;
    try {
      rows = page.all(last, BATCH) as Array<Record<string, unknown>>;
    } catch {
      salvage.errors += 1;
      // A damaged page lies somewhere in the next batch: read its rows one by one, then go on past
      // it. \`last\` grows on every turn, so the loop ends however the damage falls.
      const stop = last + BATCH;
      for (let id = last + 1; id <= stop; id++) {
        try {
          const row = one.get(id) as Record<string, unknown> | undefined;
          if (row) fresh.transaction(() => save(row))();
        } catch {
          // Unreadable row: lost.
        }
      }
      last = stop;
      if (end !== undefined) {
        if (last >= end) break;
        continue;
      }
      const next = nextReadableRowid(old, table, last);
      if (next === undefined) break;
      last = Math.max(last, next - 1);
      continue;
    }
    if (rows.length === 0) break;
    fresh.transaction(() => {
      for (const row of rows) save(row);
    })();
    last = Number(rows.at(-1)!._rowid);
  }
  return salvage;
}

/** The largest rowid, when the rightmost path of the table is readable. */
function lastRowid(old: Database, table: string): number | undefined {
  try {
    const row = old.prepare(`SELECT max(rowid) AS id FROM ${quote(table)}`).get() as { id: number | null };
    return row.id ?? 0;
  } catch {
    return undefined;
  }
}

/** The smallest rowid past `after` that a query can reach, probing ever further past the damage. */
function nextReadableRowid(old: Database, table: string, after: number): number | undefined {
  const probe = old.prepare(`SELECT rowid AS id FROM ${quote(table)} WHERE rowid >= ? ORDER BY rowid LIMIT 1`);
  for (let step = 1; step < 2 ** 40; step *= 2) {
    try {
      const row = probe.get(after + step) as { id: number } | undefined;
      return row?.id;
    } catch {
      // Still inside the damage: look further.
    }
  }
  return undefined;
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
