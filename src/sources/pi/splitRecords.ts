import type { JsonLine } from "../jsonl.js";
import { asRecord, asString } from "../jsonl.js";
import type { ParseProblem } from "../types.js";
import type { PiEntry } from "./entryItems.js";
import { type PiHeader, readHeader, readTitleSlot } from "./header.js";

export interface PiRecords {
  /** omp's title slot, when the file has one (empty titles are undefined). */
  titleSlot?: string;
  sawTitleSlot: boolean;
  header?: PiHeader;
  headerLine?: number;
  entries: PiEntry[];
  problems: ParseProblem[];
}

/**
 * Sorts parsed lines into the title slot, the header and the entries. A `session` record after the first
 * entry is not a header (pi writes exactly one, first); it is kept as an entry and later skipped as unknown.
 */
export function splitRecords(records: JsonLine[], file: string): PiRecords {
  const result: PiRecords = { sawTitleSlot: false, entries: [], problems: [] };
  for (const record of records) {
    const value = asRecord(record.value);
    const type = asString(value?.type);
    if (!value || !type) {
      result.problems.push({ file, line: record.line, reason: "not a session entry (no type)" });
    } else if (type === "title") {
      result.sawTitleSlot = true;
      const title = readTitleSlot(value);
      if (title !== undefined) result.titleSlot = title;
    } else if (type === "session" && !result.header && result.entries.length === 0) {
      result.header = readHeader(value);
      result.headerLine = record.line;
    } else {
      result.entries.push(toEntry(value, type, record.line));
    }
  }
  return result;
}

function toEntry(value: Record<string, unknown>, type: string, line: number): PiEntry {
  const entry: PiEntry = { line, type, value };
  const id = asString(value.id);
  if (id) entry.id = id;
  if (value.parentId === null) entry.parentId = null;
  else {
    const parentId = asString(value.parentId);
    if (parentId) entry.parentId = parentId;
  }
  return entry;
}
