import { appendFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { createMemoryRoot } from "../config/createMemoryRoot.js";
import { guardText } from "../redact/guard.js";

const MAX_LOG_BYTES = 256 * 1024;

export function backgroundLogPath(home: string): string {
  return join(home, "background.log");
}

/**
 * Appends one line to the log of detached background runs: they have no terminal, and a failure nobody
 * can see would look like "memory never updates". The file is rotated once it passes 256 KB.
 */
export function appendBackgroundLog(home: string, line: string): void {
  const path = backgroundLogPath(home);
  createMemoryRoot(home);
  try {
    if (statSync(path).size > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
  } catch {
    // No log yet.
  }
  // A failure's message can quote what it failed on (a model's answer, a transcript line).
  appendFileSync(path, `${guardText(line).replace(/\n/g, " ")}\n`, { mode: 0o600 });
}
