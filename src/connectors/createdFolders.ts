import { existsSync, rmdirSync } from "node:fs";
import { dirname } from "node:path";
import { linkTarget } from "../util/linkTarget.js";

/**
 * The folders writing `file` will create (its target's missing parents, deepest first), so the install
 * record can say which folders are cairn's: uninstall removes only those, and only when empty.
 */
export function missingFolders(file: string): string[] {
  const missing: string[] = [];
  for (let dir = dirname(linkTarget(file)); !existsSync(dir); dir = dirname(dir)) {
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  return missing;
}

/**
 * Removes the folders install created that are empty now, children before parents; a folder holding
 * anything (the agent's own files, a backup) stays. Returns the folders removed.
 */
export function removeEmptyFolders(folders: readonly string[]): string[] {
  const removed: string[] = [];
  for (const dir of [...new Set(folders)].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(dir);
      removed.push(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTEMPTY" && code !== "EEXIST" && code !== "ENOTDIR") throw error;
    }
  }
  return removed;
}
