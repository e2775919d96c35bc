import { statSync } from "node:fs";
import type { ParseProblem } from "./types.js";

/**
 * Bytes of a file read whole at most: one JSON document (Gemini's legacy chats, OpenCode's storage
 * files), a replayed or tree-shaped JSONL (Gemini, pi) or a compressed rollout cannot be read in
 * windows, and past a few hundred megabytes reading one would exhaust memory (and past 2 GB Node
 * refuses with a raw error). Such a file is reported and skipped instead.
 */
export const WHOLE_FILE_LIMIT = 256 * 1024 * 1024;

/** The problem of a file over the limit, or undefined when it may be read whole. Throws if unreadable. */
export function overWholeFileLimit(path: string, limit = WHOLE_FILE_LIMIT): ParseProblem | undefined {
  const size = statSync(path).size;
  if (size <= limit) return undefined;
  const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
  return { file: path, reason: `too large to read whole (${mb(size)}, limit ${mb(limit)}); skipped` };
}
