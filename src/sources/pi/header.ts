import { basename } from "node:path";
import { parseTime } from "../../util/clock.js";
import { asString } from "../jsonl.js";

/** What the `{"type":"session"}` header line says about the session. */
export interface PiHeader {
  id?: string;
  cwd?: string;
  startedAt?: number;
  title?: string;
  /** Path of the session this one was forked from (v3 `parentSession`, v1 `branchedFrom`). */
  forkedFrom?: string;
  version?: number;
}

export function readHeader(value: Record<string, unknown>): PiHeader {
  const header: PiHeader = {};
  const id = asString(value.id);
  if (id) header.id = id;
  const cwd = asString(value.cwd);
  if (cwd) header.cwd = cwd;
  const startedAt = parseTime(value.timestamp);
  if (startedAt !== undefined) header.startedAt = startedAt;
  const title = asString(value.title)?.trim();
  if (title) header.title = title;
  const forkedFrom = asString(value.parentSession) ?? asString(value.branchedFrom);
  if (forkedFrom) header.forkedFrom = forkedFrom;
  if (typeof value.version === "number") header.version = value.version;
  return header;
}

/** omp's fixed-width title slot (`{"type":"title",…,"pad":"…"}`) before the header; empty until titled. */
export function readTitleSlot(value: Record<string, unknown>): string | undefined {
  const title = asString(value.title)?.trim();
  return title ? title : undefined;
}

/**
 * Session files are named `<ISO time>_<session id>.jsonl`; the id after the first `_` is the best guess
 * when a header is missing, and the whole stem otherwise.
 */
export function sessionIdFromPath(path: string): string {
  const stem = basename(path).replace(/\.jsonl$/, "");
  const underscore = stem.indexOf("_");
  return underscore > 0 && underscore < stem.length - 1 ? stem.slice(underscore + 1) : stem;
}
