import type { Database } from "better-sqlite3";
import { guardItem } from "../../redact/guard.js";
import type { SessionItem } from "../../sources/types.js";
import { withoutNul } from "../../text/controlCharacters.js";
import { Statements } from "../statements.js";
import type { ItemRecord } from "../types/sessionRecord.js";

export type { ItemRecord };

interface ItemRow {
  id: number;
  session_id: string;
  seq: number;
  key: string;
  role: string;
  text: string;
  tool: string | null;
  call_id: string | null;
  is_error: number;
  ts: number | null;
  origin_file: string | null;
  origin_line: number | null;
}

/** SQL for `items`: a session's ordered records, keyed so that re-reading a record updates it in place. */
export class ItemsRepository {
  private readonly sql: Statements;

  constructor(db: Database) {
    this.sql = new Statements(db);
  }

  /**
   * Writes items in order after `startSeq`. An item whose key exists is updated in place (its id, the
   * collection watermark, is kept) only when its content changed. Returns how many rows were new or changed.
   */
  upsert(
    sessionId: string,
    items: readonly SessionItem[],
    startSeq: number,
    sourcePath: string | null = null,
  ): { written: number; maxSeq: number } {
    const statement = this.sql.get(
      `INSERT INTO items (session_id, seq, key, role, text, tool, call_id, is_error, ts, origin_file, origin_line)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(session_id, key) DO UPDATE SET seq = excluded.seq, role = excluded.role, text = excluded.text,
         tool = excluded.tool, call_id = excluded.call_id, is_error = excluded.is_error, ts = excluded.ts,
         origin_file = excluded.origin_file, origin_line = excluded.origin_line
       WHERE items.text IS NOT excluded.text OR items.role IS NOT excluded.role OR items.seq IS NOT excluded.seq
         OR items.is_error IS NOT excluded.is_error`,
    );
    let written = 0;
    let seq = startSeq;
    const values = new Array<string | number | null>(COLUMNS);
    for (const item of items) {
      seq += 1;
      setRow(values, 0, sessionId, seq, item, sourcePath);
      written += statement.run(values).changes;
    }
    return { written, maxSeq: seq };
  }

  /**
   * Writes the items of a session that has none yet: a plain insert, cheaper than the upsert on the
   * import hot path, several rows per statement (each statement run costs a round trip into SQLite
   * about as dear as the row itself). Rows go in runs of 32, then 16, 8, 4, 2 and 1, so a short
   * session (most are) also takes a few statements rather than one per item. Duplicate keys within
   * one read keep the last occurrence. Returns the rows the session now holds and the highest id
   * among them, which the import would otherwise query for right after.
   */
  insertNew(
    sessionId: string,
    items: readonly SessionItem[],
    sourcePath: string | null = null,
  ): { rows: number; maxId: number | null } {
    let seq = 0;
    let index = 0;
    let maxId: number | null = null;
    for (let rows = ROWS_PER_INSERT; rows >= 1; rows >>= 1) {
      if (items.length - index < rows) continue;
      const statement = this.sql.get(INSERT_SQL.get(rows)!);
      const values = new Array<string | number | null>(rows * COLUMNS);
      for (; index + rows <= items.length; index += rows) {
        for (let row = 0; row < rows; row++)
          setRow(values, row * COLUMNS, sessionId, ++seq, items[index + row]!, sourcePath);
        // Ids only grow, and a statement whose rows all repeated earlier keys inserts none.
        const run = statement.run(values);
        if (run.changes > 0) maxId = Math.max(maxId ?? 0, Number(run.lastInsertRowid));
      }
    }
    return { rows: new Set(items.map((item) => item.key)).size, maxId };
  }

  /** Deletes the session's items whose keys are not in `keep` (a full re-read dropped them). */
  deleteMissing(sessionId: string, keep: readonly string[]): number {
    return this.sql
      .get("DELETE FROM items WHERE session_id = ? AND key NOT IN (SELECT value FROM json_each(?))")
      .run(sessionId, JSON.stringify(keep)).changes;
  }

  /** The text of the session's last user message, or null: whether it left a `<private>` block open. */
  lastUserText(sessionId: string): string | null {
    const row = this.sql
      .get("SELECT text FROM items WHERE session_id = ? AND role = 'user' ORDER BY seq DESC LIMIT 1")
      .get(sessionId) as { text: string } | undefined;
    return row?.text ?? null;
  }

  maxSeq(sessionId: string): number {
    const row = this.sql.get("SELECT max(seq) AS m FROM items WHERE session_id = ?").get(sessionId) as {
      m: number | null;
    };
    return row.m ?? 0;
  }

  /** Highest item id of the session, or null when it has none. */
  maxId(sessionId: string): number | null {
    const row = this.sql.get("SELECT max(id) AS m FROM items WHERE session_id = ?").get(sessionId) as {
      m: number | null;
    };
    return row.m;
  }

  /** The session's highest item id (null when it has none) and how many items follow `afterId` (all when null), in one pass. */
  progress(sessionId: string, afterId: number | null): { maxId: number | null; since: number } {
    const row = this.sql
      .get("SELECT max(id) AS m, count(*) FILTER (WHERE id > ?) AS n FROM items WHERE session_id = ?")
      .get(afterId ?? 0, sessionId) as { m: number | null; n: number };
    return { maxId: row.m, since: row.n };
  }

  count(sessionId?: string): number {
    const row = (
      sessionId === undefined
        ? this.sql.get("SELECT count(*) AS n FROM items").get()
        : this.sql.get("SELECT count(*) AS n FROM items WHERE session_id = ?").get(sessionId)
    ) as { n: number };
    return row.n;
  }

  /** Item counts for many sessions at once (listing). */
  countsBySession(): Map<string, number> {
    const rows = this.sql.get("SELECT session_id, count(*) AS n FROM items GROUP BY session_id").all() as Array<{
      session_id: string;
      n: number;
    }>;
    return new Map(rows.map((row) => [row.session_id, row.n]));
  }

  /** Assistant items after `afterId` whose text contains `needle` (citation blocks). */
  assistantItemsContaining(needle: string, afterId: number): ItemRecord[] {
    const rows = this.sql
      .get("SELECT * FROM items WHERE id > ? AND role = 'assistant' AND instr(text, ?) > 0 ORDER BY id")
      .all(afterId, needle) as ItemRow[];
    return rows.map(toRecord);
  }

  /** The highest item id in the store (0 when empty). */
  lastId(): number {
    return (this.sql.get("SELECT coalesce(max(id), 0) AS m FROM items").get() as { m: number }).m;
  }

  /**
   * Each of `ids` (store-wide item ids) that belongs to the session, mapped to its position in the
   * session (`seq`). Ids of other sessions or of removed items are left out.
   */
  positions(sessionId: string, ids: readonly number[]): Map<number, number> {
    if (ids.length === 0) return new Map();
    const rows = this.sql
      .get("SELECT id, seq FROM items WHERE session_id = ? AND id IN (SELECT value FROM json_each(?))")
      .all(sessionId, JSON.stringify(ids)) as Array<{ id: number; seq: number }>;
    return new Map(rows.map((row) => [row.id, row.seq]));
  }

  /** When the items `ids` of a session were said (epoch ms), for those that carry a time. */
  times(sessionId: string, ids: readonly number[]): Map<number, number> {
    if (ids.length === 0) return new Map();
    const rows = this.sql
      .get(
        "SELECT id, ts FROM items WHERE session_id = ? AND ts IS NOT NULL AND id IN (SELECT value FROM json_each(?))",
      )
      .all(sessionId, JSON.stringify(ids)) as Array<{ id: number; ts: number }>;
    return new Map(rows.map((row) => [row.id, row.ts]));
  }

  /**
   * The session's item ids in order, with each text's size in bytes, without reading the texts:
   * `octet_length` takes the size from the record header, and the sort holds ids only. What a reader
   * of a large session pages through (`byIds`).
   */
  outline(sessionId: string): { ids: number[]; bytes: number[] } {
    const rows = this.sql
      .get("SELECT id, octet_length(text) FROM items WHERE session_id = ? ORDER BY seq, id")
      .raw(true)
      .all(sessionId) as Array<[number, number]>;
    return { ids: rows.map((row) => row[0]), bytes: rows.map((row) => row[1]) };
  }

  /** The items `ids`, in session order (one page of an `outline`); ids no longer stored are left out. */
  byIds(ids: readonly number[]): ItemRecord[] {
    if (ids.length === 0) return [];
    const rows = this.sql
      .get("SELECT * FROM items WHERE id IN (SELECT value FROM json_each(?)) ORDER BY seq, id")
      .all(JSON.stringify(ids)) as ItemRow[];
    return rows.map(toRecord);
  }

  /**
   * How many of the session's items have one of `roles` and a text that is not blank as JavaScript's
   * `trim` sees it, counted inside SQLite so that no text is read into the process.
   */
  countWithText(sessionId: string, roles: Iterable<string>): number {
    const row = this.sql
      .get(
        "SELECT count(*) AS n FROM items WHERE session_id = ? AND role IN (SELECT value FROM json_each(?)) AND trim(text, ?) <> ''",
      )
      .get(sessionId, JSON.stringify([...roles]), JS_WHITESPACE) as { n: number };
    return row.n;
  }

  /** The session's items in order, optionally limited to an id range (inclusive). */
  list(sessionId: string, range: { fromId?: number; toId?: number } = {}): ItemRecord[] {
    const rows = this.sql
      .get("SELECT * FROM items WHERE session_id = ? AND id >= ? AND id <= ? ORDER BY seq, id")
      .all(sessionId, range.fromId ?? 0, range.toId ?? Number.MAX_SAFE_INTEGER) as ItemRow[];
    return rows.map(toRecord);
  }
}

/**
 * The characters `String.prototype.trim` removes (ECMAScript WhiteSpace and LineTerminator), for
 * SQLite's `trim(X, Y)`, which removes any of Y's characters, multi-byte ones included.
 */
export const JS_WHITESPACE =
  "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

/** Rows written by one statement of `insertNew`. */
const ROWS_PER_INSERT = 32;

/** An insert of `rows` new items; a key met twice in one statement keeps the later row. */
function buildInsertSql(rows: number): string {
  const row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  return `INSERT INTO items (session_id, seq, key, role, text, tool, call_id, is_error, ts, origin_file, origin_line)
    VALUES ${Array.from({ length: rows }, () => row).join(", ")}
    ON CONFLICT(session_id, key) DO UPDATE SET text = excluded.text, role = excluded.role, seq = excluded.seq`;
}
/** The SQL of each run length `insertNew` uses (32, 16, ..., 1), built once. */
const INSERT_SQL = new Map<number, string>();
for (let rows = ROWS_PER_INSERT; rows >= 1; rows >>= 1) INSERT_SQL.set(rows, buildInsertSql(rows));

/** Columns of one row in the INSERT statements above. */
const COLUMNS = 11;

/**
 * Writes an item's column values at `at`, in the order of the INSERT statements above (into a
 * preallocated array: this runs for every item of every import). The origin file is left out when it
 * is the session's own file: nearly every item's is, and a path on every row made up a quarter of the
 * store.
 */
function setRow(
  values: Array<string | number | null>,
  at: number,
  sessionId: string,
  seq: number,
  item: SessionItem,
  sourcePath: string | null,
): void {
  values[at] = sessionId;
  values[at + 1] = seq;
  values[at + 2] = item.key;
  values[at + 3] = item.role;
  // A NUL would end the text for SQLite's own functions (search, erasure): stored as U+FFFD instead.
  values[at + 4] = withoutNul(guardItem(item).text);
  values[at + 5] = item.tool ?? null;
  values[at + 6] = item.callId ?? null;
  values[at + 7] = resultStatus(item);
  values[at + 8] = item.ts ?? null;
  values[at + 9] = item.origin.file === sourcePath ? null : item.origin.file;
  values[at + 10] = item.origin.line;
}

/**
 * `items.is_error` holds a tool result's outcome: 0 worked (in rows written before unknown outcomes were
 * stored: not marked failed), 1 failed, 2 unknown (the transcript shows neither: SessionItem.outcomeUnknown).
 * A value in the existing column, not a new one: no migration, and older rows read as before.
 */
const IS_ERROR = { worked: 0, failed: 1, unknown: 2 } as const;

function resultStatus(item: SessionItem): number {
  if (item.isError) return IS_ERROR.failed;
  return item.outcomeUnknown ? IS_ERROR.unknown : IS_ERROR.worked;
}

function toRecord(row: ItemRow): ItemRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    seq: row.seq,
    key: row.key,
    role: row.role as ItemRecord["role"],
    text: row.text,
    tool: row.tool,
    callId: row.call_id,
    isError: row.is_error === IS_ERROR.failed,
    outcomeUnknown: row.is_error === IS_ERROR.unknown,
    ts: row.ts,
    originFile: row.origin_file,
    originLine: row.origin_line,
  };
}
