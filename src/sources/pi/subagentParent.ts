import { existsSync } from "node:fs";
import { basename, dirname } from "node:path";
import { asRecord, asString, readJsonLines } from "../jsonl.js";
import { sessionIdFromPath } from "./header.js";

/** `2026-01-19T10-20-30-123Z_<id>`: how pi and omp name a session file (without `.jsonl`). */
const SESSION_STEM = /^\d{4}-\d{2}-\d{2}T[\d-]+Z_.+$/;

/**
 * omp's task tool writes each subagent run to `<parent session path minus .jsonl>/<taskId>.jsonl`, so a
 * session file inside a folder named like a session file is a subagent. The parent id is the parent's header
 * id when that file can be read, else its file stem (the id is the part after `_`, but the stem is what we
 * know for certain). Returns undefined for an ordinary session file.
 */
export function subagentParent(file: string): string | undefined {
  const folder = dirname(file);
  const parentFile = `${folder}.jsonl`;
  const hasParentFile = existsSync(parentFile);
  if (!hasParentFile && !SESSION_STEM.test(basename(folder))) return undefined;
  return (hasParentFile ? headerId(parentFile) : undefined) ?? basename(folder);
}

function headerId(path: string): string | undefined {
  try {
    // Expects: the header is within the first two records (omp puts a title slot first).
    for (const record of readJsonLines(path).records.slice(0, 2)) {
      const value = asRecord(record.value);
      if (value?.type === "session") return asString(value.id) ?? sessionIdFromPath(path);
    }
  } catch {
    // An unreadable parent is reported when the parent itself is read; here its stem is enough.
  }
  return undefined;
}
