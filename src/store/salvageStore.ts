import { existsSync, renameSync, rmSync } from "node:fs";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { errorMessage } from "../util/errors.js";
import { openDatabase } from "./connection.js";
import { damagedMarkerPath } from "./storeFault.js";

export interface TableSalvage {
  table: string;
  saved: number;
  /** Rows the damaged store said it had; null when even counting them failed. */
  total: number | null;
  /** Read errors met (each skips the rows it hides). */
  errors: number;
}

export interface SalvageReport {
  /** Where the damaged store now is (its -wal and -shm beside it, renamed the same way). */
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

/** Tables that a rescan of the transcripts fills again. */
const TRANSCRIPT_TABLES = new Set(["sessions", "items"]);
/** Rows read per query; a read error loses at most the rows the damaged page hides, not the batch. */
const BATCH = 500;

/**
 * Keeps the damaged store aside as `<name>.damaged-<UTC time>` and builds a fresh store at `path`
 * from every row that can still be read, table by table. Nothing is deleted: the damaged file stays
 * for the user (or sqlite3's `.recover`) to try again.
 */
export function salvageStore(path: string, now: Date = new Date()): SalvageReport {
  const damagedPath = `${path}.damaged-${now.toISOString().replace(/[:.]/g, "-")}`;
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(path + suffix)) renameSync(path + suffix, damagedPath + suffix);
  }
  const report: SalvageReport = { damagedPath, tables: [], saved: 0, lost: 0, rescan: false, unreadable: null };
  const fresh = openDatabase(path).db;
  // The store at `path` is the fresh one from here on: commands may use it again.
  rmSync(damagedMarkerPath(path), { force: true });
  let old: Database | undefined;
  try {
    try {
      old = new BetterSqlite3(damagedPath, { readonly: true, fileMustExist: true });
      old.prepare("SELECT count(*) FROM sqlite_schema").get();
    } catch (error) {
      report.unreadable = errorMessage(error);
      report.lost = null;
      report.rescan = true;
      return report;
    }
    fresh.pragma("foreign_keys = OFF");
    for (const table of copyableTables(fresh)) {
      const salvage = copyTable(old, fresh, table);
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
    return report;
  } finally {
    old?.close();
    fresh.close();
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

function copyTable(old: Database, fresh: Database, table: string): TableSalvage {
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
