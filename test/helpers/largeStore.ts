import { readFileSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";

/** Stores above this size are not read whole at every open (CHECK_AT_OPEN_MAX_BYTES is 32 MB). */
export const LARGE_STORE_BYTES = 40 * 1024 * 1024;

/**
 * Grows the (closed) store at `path` past `bytes` with old sessions of transcript items inserted
 * directly: seconds instead of a scan of a thousand transcripts. The sessions are years old, so no
 * run extracts them. Checkpointed, so everything is in the main file. Returns the items written.
 */
export function growStore(path: string, bytes = LARGE_STORE_BYTES): number {
  const db = new Database(path);
  const text = (s: number, i: number) =>
    `filler session ${s} turn ${i}: ${"the parser keeps dates in UTC and the tests run with pnpm ".repeat(6)}`;
  const addSession = db.prepare(
    "INSERT INTO sessions (id, agent, kind, started_at, updated_at, created_at) VALUES (?, 'codex', 'main', ?, ?, ?)",
  );
  const addItem = db.prepare("INSERT INTO items (session_id, seq, key, role, text) VALUES (?, ?, ?, ?, ?)");
  const old = Date.parse("2001-01-01T00:00:00Z");
  let written = 0;
  for (let s = 0; (db.pragma("page_count", { simple: true }) as number) * 4096 < bytes; s++) {
    db.transaction(() => {
      addSession.run(`filler-${s}`, old, old, old);
      for (let i = 0; i < 100; i++) addItem.run(`filler-${s}`, i, `k${i}`, i % 2 ? "assistant" : "user", text(s, i));
    })();
    written += 100;
  }
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return written;
}

/**
 * Garbage over `count` pages of `table` (or index) from the middle of its pages, leaving the header, the
 * schema and the other tables readable (pages chosen through dbstat, so a schema change that moves
 * tables around keeps a test true). The store must be closed and checkpointed.
 */
export function garbleTable(path: string, table: string, count: number): void {
  const db = new Database(path, { readonly: true });
  const pages = (
    db
      .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype IN ('leaf', 'internal') ORDER BY pageno")
      .all(table) as Array<{ pageno: number }>
  ).map((row) => row.pageno);
  db.close();
  if (pages.length === 0) throw new Error(`table ${table} has no pages`);
  const from = Math.max(0, Math.floor(pages.length / 2) - Math.floor(count / 2));
  const bytes = readFileSync(path);
  for (const page of pages.slice(from, from + count)) {
    const start = (page - 1) * 4096;
    for (let offset = start; offset < start + 4096; offset++) bytes[offset] = (offset * 131) % 251;
  }
  writeFileSync(path, bytes);
}

/** Rows of `table` in the store at `path` (read-only). */
export function countRows(path: string, table: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}
