import { appendFileSync, closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { guardText } from "../redact/guard.js";

/** One session start that was given remembered memories: which, in the order the agent saw them. */
export interface InjectionRecord {
  sessionId: string;
  agent: string;
  at: number;
  memoryIds: number[];
}

const FILE = "injections.jsonl";
/** A read takes at most this much of the log; the rest waits for the next cycle. */
const READ_CAP = 4 * 1024 * 1024;

export const injectionLogPath = (home: string) => join(home, FILE);

/**
 * Appends a record to the memory root's injection log. The session-start path never writes the store
 * (it must not wait on a lock or migrate), so it appends a line here; the continuity worker moves the
 * lines into the store. Best-effort: a start whose line cannot be written still gets its memory.
 */
export function appendInjection(home: string, record: InjectionRecord): boolean {
  // The session id and agent come from the agent's hook input: a secret in them never reaches the file.
  const line = { ...record, sessionId: guardText(record.sessionId), agent: guardText(record.agent) };
  try {
    appendFileSync(injectionLogPath(home), `${JSON.stringify(line)}\n`, { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

/**
 * The whole lines of the log after byte `offset`, and the offset after the last of them. A line that
 * is not a record (a torn write, an edit by hand) is skipped and counted (`unreadable`), never fatal. A log shorter than the
 * offset was replaced: it is read from the start.
 */
export function readInjections(
  home: string,
  offset: number,
): { records: InjectionRecord[]; next: number; unreadable: number } {
  let fd: number;
  try {
    fd = openSync(injectionLogPath(home), "r");
  } catch {
    return { records: [], next: offset, unreadable: 0 };
  }
  try {
    const size = fstatSync(fd).size;
    const from = size < offset ? 0 : offset;
    const length = Math.min(size - from, READ_CAP);
    if (length <= 0) return { records: [], next: from, unreadable: 0 };
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, from);
    const end = buffer.lastIndexOf(0x0a);
    if (end < 0) return { records: [], next: from, unreadable: 0 };
    const records: InjectionRecord[] = [];
    let unreadable = 0;
    for (const line of buffer.subarray(0, end).toString("utf8").split("\n")) {
      const record = parseRecord(line);
      if (record) records.push(record);
      else if (line.trim() !== "") unreadable++;
    }
    return { records, next: from + end + 1, unreadable };
  } finally {
    closeSync(fd);
  }
}

function parseRecord(line: string): InjectionRecord | undefined {
  try {
    const value = JSON.parse(line) as Partial<InjectionRecord>;
    if (typeof value.sessionId !== "string" || value.sessionId === "" || typeof value.at !== "number") return undefined;
    if (!Array.isArray(value.memoryIds)) return undefined;
    const memoryIds = value.memoryIds.filter((id): id is number => Number.isSafeInteger(id) && id > 0);
    return { sessionId: value.sessionId.slice(0, 200), agent: String(value.agent ?? ""), at: value.at, memoryIds };
  } catch {
    return undefined;
  }
}
