import { parseTime } from "../../util/clock.js";
import { asRecord, asString } from "../jsonl.js";
import type { ParseProblem } from "../types.js";
import type { OcMessage, OcPart, OcSession } from "./ocTypes.js";

/** A row as better-sqlite3 returns it: column values are untrusted until checked. */
export interface Row {
  id: unknown;
  data?: unknown;
  [column: string]: unknown;
}

export function toSession(row: Row): OcSession | undefined {
  const id = asString(row.id);
  if (!id) return undefined;
  const session: OcSession = { id };
  const parentId = asString(row.parent_id);
  if (parentId) session.parentId = parentId;
  const directory = asString(row.directory);
  if (directory) session.directory = directory;
  const title = asString(row.title);
  if (title) session.title = title;
  const created = parseTime(row.time_created);
  if (created !== undefined) session.created = created;
  const updated = parseTime(row.time_updated);
  if (updated !== undefined) session.updated = updated;
  return session;
}

/** Groups a session's part rows under its message rows; parts whose message is gone are counted as orphans. */
export function loadMessages(input: { messageRows: Row[]; partRows: Row[]; file: string; problems: ParseProblem[] }): {
  list: OcMessage[];
  orphans: number;
} {
  const { file, problems } = input;
  const byId = new Map<string, OcMessage>();
  for (const row of input.messageRows) {
    const id = asString(row.id);
    const data = id ? dataOf(row, `message ${id}`, file, problems) : undefined;
    if (!id || !data) continue;
    const created = parseTime(row.time_created);
    byId.set(id, { id, data, parts: [], ...(created === undefined ? {} : { created }) });
  }
  let orphans = 0;
  for (const row of input.partRows) {
    const id = asString(row.id);
    const message = byId.get(asString(row.message_id) ?? "");
    const data = id ? dataOf(row, `part ${id}`, file, problems) : undefined;
    if (!id || !data) continue;
    const part: OcPart = { id, data, file };
    if (message) message.parts.push(part);
    else orphans += 1;
  }
  return { list: [...byId.values()], orphans };
}

function dataOf(row: Row, label: string, file: string, problems: ParseProblem[]): Record<string, unknown> | undefined {
  try {
    const data = asRecord(JSON.parse(String(row.data)));
    if (data) return data;
    problems.push({ file, reason: `${label}: data is not a JSON object` });
  } catch {
    problems.push({ file, reason: `${label}: malformed data JSON` });
  }
  return undefined;
}
