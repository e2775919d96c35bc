import type { Database } from "better-sqlite3";

/** The columns this reader relies on (OpenCode v1.2+ `session.sql.ts`); others may come and go. */
const REQUIRED: Record<string, readonly string[]> = {
  session: ["id", "parent_id", "directory", "title", "time_created", "time_updated"],
  message: ["id", "session_id", "time_created", "data"],
  part: ["id", "message_id", "session_id", "data"],
};

/** Why the database cannot be read as OpenCode's, or undefined when every needed table and column is there. */
export function schemaProblem(db: Database): string | undefined {
  const missing: string[] = [];
  for (const [table, columns] of Object.entries(REQUIRED)) {
    const present = new Set(
      (db.prepare("SELECT name FROM pragma_table_info(?)").all(table) as { name: unknown }[]).map((row) => row.name),
    );
    if (present.size === 0) {
      missing.push(`table ${table}`);
      continue;
    }
    for (const column of columns) if (!present.has(column)) missing.push(`${table}.${column}`);
  }
  return missing.length === 0 ? undefined : `not an OpenCode database this reader knows: missing ${missing.join(", ")}`;
}
