import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { errorMessage } from "../../util/errors.js";
import { asRecord } from "../jsonl.js";
import type { ParseProblem } from "../types.js";
import { overWholeFileLimit, WHOLE_FILE_LIMIT } from "../wholeFileLimit.js";

/**
 * `*.json` files of the first of `dirs` that exists (each layout keeps a session's files in one place).
 * Regular files only: reading a FIFO would block the scan, so a `*.json` that is not a regular file
 * (nor a link, which the read follows) is a located problem.
 */
export function jsonFiles(dirs: string[], problems: ParseProblem[]): string[] {
  for (const dir of dirs) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // Not this layout (or no messages yet): try the next.
      continue;
    }
    const files: string[] = [];
    for (const entry of entries) {
      if (!entry.name.endsWith(".json")) continue;
      const path = join(dir, entry.name);
      if (entry.isFile()) files.push(path);
      else if (!entry.isDirectory() && !entry.isSymbolicLink())
        problems.push({ file: path, reason: "not a regular file (a FIFO, socket or device): never read" });
    }
    return files.sort();
  }
  return [];
}

/** Parses a JSON object file; a bad or unreadable file is a located problem, not the end of the session. */
export function readJson(
  path: string,
  problems: ParseProblem[],
  limit = WHOLE_FILE_LIMIT,
): Record<string, unknown> | undefined {
  try {
    const tooLarge = overWholeFileLimit(path, limit);
    if (tooLarge) {
      problems.push(tooLarge);
      return undefined;
    }
    const value = asRecord(JSON.parse(readFileSync(path, "utf8")));
    if (value) return value;
    problems.push({ file: path, reason: "not a JSON object" });
  } catch (error) {
    problems.push({
      file: path,
      reason: error instanceof SyntaxError ? "malformed JSON" : `unreadable: ${errorMessage(error)}`,
    });
  }
  return undefined;
}

/** The `storage` folder a session file lives under. */
export function storageDir(file: string): string | undefined {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === "storage") return dir;
  }
  return undefined;
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
