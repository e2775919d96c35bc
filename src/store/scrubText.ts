import type { Database } from "better-sqlite3";
import { textForms, textFormsPattern } from "../util/textForms.js";

/** What a purged text is replaced with where the row holding it stays. */
export const PURGED_MARK = "[purged]";

/**
 * Columns that hold cairn's own vocabulary (kinds, states, roles, types) or identifiers other rows join
 * on (session ids, project keys, scopes, hashes, file paths): rewritten, they would break the store,
 * and a purged word that is also such a value ("global", "fact") must not touch them.
 */
const STRUCTURAL = new Set([
  "id",
  "key",
  "kind",
  "status",
  "role",
  "agent",
  "type",
  "event",
  "detector",
  "resolution",
  "generator",
  "entity_type",
  "model",
  "embedding_model",
  "day",
  "content_hash",
  "tail_hash",
  "lease_owner",
  "session_id",
  "parent_id",
  "session_ids",
  "workspace",
  "scope",
  "project_key",
  "path",
  "source_path",
  "origin_file",
  "resume_state",
  "git_commit",
]);

/**
 * Rewrites every text value of every ordinary table that holds `needle` (in any letter case, and in its
 * JSON-escaped form inside JSON columns), except the tables in `skip`, whose rows the caller deletes
 * instead, and the structural columns above. Tables are listed from the schema, so a table added later is covered without a change here.
 * A row that cannot be rewritten (the new value would break a unique key, or its key is referenced) is
 * deleted. Returns how many rows changed. Call inside a write transaction; virtual tables' shadow
 * tables are left to their owners (full-text indexes follow their content's triggers).
 */
export function scrubText(db: Database, needle: string, skip: ReadonlySet<string>): number {
  const forms = textForms(needle);
  const pattern = textFormsPattern(needle);
  let changed = 0;
  for (const table of ordinaryTables(db)) {
    if (skip.has(table)) continue;
    const columns = (db.prepare(`PRAGMA table_info(${quote(table)})`).all() as Array<{ name: string }>).map(
      (column) => column.name,
    );
    for (const column of columns) {
      if (STRUCTURAL.has(column)) continue;
      const rows = db
        .prepare(
          `SELECT rowid AS id, ${quote(column)} AS value FROM ${quote(table)}
           WHERE typeof(${quote(column)}) = 'text' AND (${forms.map(() => `instr(lower(${quote(column)}), lower(?)) > 0`).join(" OR ")})`,
        )
        .all(...forms) as Array<{ id: number; value: string }>;
      const update = db.prepare(`UPDATE ${quote(table)} SET ${quote(column)} = ? WHERE rowid = ?`);
      const remove = db.prepare(`DELETE FROM ${quote(table)} WHERE rowid = ?`);
      for (const row of rows) {
        try {
          update.run(row.value.replace(pattern, PURGED_MARK), row.id);
        } catch (error) {
          // Two rows that differed only by the text now collide on a unique key: the copy goes. Any
          // other error (a damaged page, a full disk) is the caller's to see, not a reason to delete.
          if (!String((error as { code?: unknown }).code).startsWith("SQLITE_CONSTRAINT")) throw error;
          remove.run(row.id);
        }
        changed += 1;
      }
    }
  }
  return changed;
}

/** Tables that hold rows of their own: not views, virtual tables, their shadow tables or SQLite's own. */
function ordinaryTables(db: Database): string[] {
  const rows = db.prepare("PRAGMA main.table_list").all() as Array<{ name: string; type: string }>;
  return rows
    .filter((row) => row.type === "table" && !row.name.startsWith("sqlite_"))
    .map((row) => row.name)
    .sort();
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
