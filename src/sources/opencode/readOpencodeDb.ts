import { statSync } from "node:fs";
import Database, { type Database as Db } from "better-sqlite3";
import { errorMessage } from "../../util/errors.js";
import type { ReadResult } from "../adapter.js";
import type { ParsedSession, ParseProblem } from "../types.js";
import { loadMessages, type Row, toSession } from "./dbRows.js";
import { schemaProblem } from "./dbSchema.js";
import { messageItems } from "./messageItems.js";
import { sessionInfo } from "./sessionInfo.js";

/**
 * Reads every session in an `opencode.db` (one ParsedSession each). The database is opened read-only and
 * read inside one transaction, so a concurrent OpenCode writer (WAL mode) is neither blocked nor seen
 * half-way. Whole-file: no resume. A database that is not OpenCode's, or that fails mid-read, is one problem.
 */
export function readOpencodeDb(file: string): ReadResult {
  let db: Db;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    return { sessions: [], problems: [{ file, reason: `unreadable: ${errorMessage(error)}` }], skipped: 0 };
  }
  try {
    const problem = schemaProblem(db);
    if (problem) return { sessions: [], problems: [{ file, reason: problem }], skipped: 0 };
    const mtime = statSync(file).mtimeMs;
    return db.transaction(() => readAll(db, file, mtime))();
  } catch (error) {
    return { sessions: [], problems: [{ file, reason: `unreadable: ${errorMessage(error)}` }], skipped: 0 };
  } finally {
    db.close();
  }
}

function readAll(db: Db, file: string, mtime: number): ReadResult {
  const problems: ParseProblem[] = [];
  const sessions: ParsedSession[] = [];
  let skipped = 0;
  const sessionRows = db
    .prepare(
      "SELECT id, parent_id, directory, title, time_created, time_updated FROM session ORDER BY time_created, id",
    )
    .all() as Row[];
  const messageQuery = db.prepare(
    "SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id",
  );
  const partQuery = db.prepare("SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id");
  for (const row of sessionRows) {
    const session = toSession(row);
    if (!session) {
      problems.push({ file, reason: "session row without an id" });
      continue;
    }
    const messages = loadMessages({
      messageRows: messageQuery.all(session.id) as Row[],
      partRows: partQuery.all(session.id) as Row[],
      file,
      problems,
    });
    const collected = messageItems(messages.list);
    skipped += collected.skipped + messages.orphans;
    sessions.push({ session: sessionInfo(session, mtime), items: collected.items });
  }
  return { sessions, problems, skipped };
}
