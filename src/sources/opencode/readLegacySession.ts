import { statSync } from "node:fs";
import { basename, join } from "node:path";
import { parseTime } from "../../util/clock.js";
import { errorMessage } from "../../util/errors.js";
import type { ReadResult } from "../adapter.js";
import { asRecord, asString } from "../jsonl.js";
import type { ParseProblem } from "../types.js";
import { compare, jsonFiles, readJson, storageDir } from "./jsonTree.js";
import { messageItems } from "./messageItems.js";
import type { OcMessage, OcPart, OcSession } from "./ocTypes.js";
import { sessionInfo } from "./sessionInfo.js";

/**
 * Reads one session of the pre-v1.2 JSON tree: `storage/session/<project>/<ses>.json`, its messages in
 * `storage/message/<ses>/*.json` and each message's parts in `storage/part/<msg>/*.json` (the mid-2025
 * layout kept them under `storage/session/message|part/` instead; both are looked for).
 */
export function readLegacySession(file: string): ReadResult {
  const problems: ParseProblem[] = [];
  let info: Record<string, unknown> | undefined;
  let mtime: number;
  try {
    mtime = statSync(file).mtimeMs;
    info = readJson(file, problems);
  } catch (error) {
    return { sessions: [], problems: [{ file, reason: `unreadable: ${errorMessage(error)}` }], skipped: 0 };
  }
  if (!info) return { sessions: [], problems, skipped: 0 };
  const session = toSession(info, file);
  const storage = storageDir(file);
  const messages = storage ? loadMessages(storage, session.id, problems) : [];
  const collected = messageItems(messages);
  return {
    sessions: [{ session: sessionInfo(session, mtime), items: collected.items }],
    problems,
    skipped: collected.skipped,
  };
}

function toSession(info: Record<string, unknown>, file: string): OcSession {
  const session: OcSession = { id: asString(info.id) ?? basename(file, ".json") };
  const parentId = asString(info.parentID);
  if (parentId) session.parentId = parentId;
  const directory = asString(info.directory);
  if (directory) session.directory = directory;
  const title = asString(info.title);
  if (title) session.title = title;
  const time = asRecord(info.time);
  const created = parseTime(time?.created);
  if (created !== undefined) session.created = created;
  const updated = parseTime(time?.updated);
  if (updated !== undefined) session.updated = updated;
  return session;
}

function loadMessages(storage: string, sessionId: string, problems: ParseProblem[]): OcMessage[] {
  const messages: OcMessage[] = [];
  const messageDirs = [join(storage, "message", sessionId), join(storage, "session", "message", sessionId)];
  for (const path of jsonFiles(messageDirs, problems)) {
    const data = readJson(path, problems);
    if (!data) continue;
    const id = asString(data.id) ?? basename(path, ".json");
    const created = parseTime(asRecord(data.time)?.created);
    const partDirs = [join(storage, "part", id), join(storage, "session", "part", sessionId, id)];
    const parts = jsonFiles(partDirs, problems).flatMap((partPath): OcPart[] => {
      const part = readJson(partPath, problems);
      return part ? [{ id: asString(part.id) ?? basename(partPath, ".json"), data: part, file: partPath }] : [];
    });
    parts.sort((a, b) => compare(a.id, b.id));
    messages.push({ id, data, parts, ...(created === undefined ? {} : { created }) });
  }
  return messages.sort((a, b) => (a.created ?? 0) - (b.created ?? 0) || compare(a.id, b.id));
}
