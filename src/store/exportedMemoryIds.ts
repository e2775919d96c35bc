import type { Database } from "better-sqlite3";
import { DOCUMENT_CHUNK_TYPE } from "./contracts/memories.js";
import { cached } from "./statements.js";

/**
 * The ids of the memories an export writes, oldest first (so a memory's successor, newer, follows it):
 * live ones in the scopes, and with `withGone` the forgotten and replaced ones too. Pipeline audits
 * with no memory are not memories and are never exported; nor are a document's chunks, which are not
 * statements anyone made and come back by ingesting the document where the file is imported.
 */
export function exportedMemoryIds(db: Database, scopes: string[] | "all", withGone: boolean): number[] {
  const live = `${withGone ? "" : " AND deleted_at IS NULL"} AND type IS NOT '${DOCUMENT_CHUNK_TYPE}'`;
  const sql =
    scopes === "all"
      ? `SELECT id FROM memories WHERE 1 = 1${live} ORDER BY id`
      : `SELECT id FROM memories WHERE scope IN (SELECT value FROM json_each(?))${live} ORDER BY id`;
  const rows = (scopes === "all" ? cached(db, sql).all() : cached(db, sql).all(JSON.stringify(scopes))) as {
    id: number;
  }[];
  return rows.map((row) => row.id);
}

/**
 * The content hashes of a scope's memories in any state (live, forgotten or replaced): an import finds
 * what it stored before by them, so the same file imported twice adds nothing. Read once per scope, as
 * only live rows have a hash index.
 */
export function contentHashesIn(db: Database, scope: string): Set<string> {
  const rows = cached(db, "SELECT content_hash AS hash FROM memories WHERE scope = ?").all(scope) as {
    hash: string | null;
  }[];
  return new Set(rows.flatMap((row) => (row.hash === null ? [] : [row.hash])));
}
