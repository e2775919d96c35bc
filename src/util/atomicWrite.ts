import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { nodeCrypto } from "./nodeCrypto.js";

/**
 * Writes a file so that readers see either the old or the new content, never half of it (temp + rename).
 * `stillCurrent`, when given, runs after the temp file is written and just before the rename: false
 * leaves the file alone (the temp is removed) and the call returns false, so a caller that read the
 * file first can notice that someone else wrote it meanwhile and recompute instead of losing that write.
 */
export function writeFileAtomic(
  path: string,
  content: string | Buffer,
  mode = 0o600,
  stillCurrent?: () => boolean,
): boolean {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${nodeCrypto().randomBytes(6).toString("hex")}.tmp`);
  try {
    writeFileSync(temp, content, { mode });
    if (stillCurrent && !stillCurrent()) {
      rmSync(temp, { force: true });
      return false;
    }
    renameSync(temp, path);
    return true;
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
