import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { errnoWords } from "../util/errnoWords.js";
import { CairnError } from "../util/errors.js";

/** The failures a user fixes by pointing cairn at another folder. */
const FIXED_BY_ANOTHER_FOLDER = new Set(["EEXIST", "ENOTDIR", "EACCES", "EPERM", "EROFS"]);

/**
 * Makes the memory root (`$CAIRN_HOME`, `--home`, `~/.cairn`) when it is missing and checks that cairn
 * can write in it. A root cairn cannot use (a file of that name, a folder of another user, a read-only
 * disk) is one error naming the folder, why, and the setting that moves it, instead of Node's
 * `EEXIST: file already exists, mkdir ...` from whichever command met it first.
 */
export function createMemoryRoot(home: string): void {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    accessSync(home, constants.W_OK);
  } catch (error) {
    const { code, words: reason } = errnoWords(error);
    if (!reason || !FIXED_BY_ANOTHER_FOLDER.has(code)) throw error;
    const blocker = code === "EEXIST" || code === "ENOTDIR" ? fileInTheWay(home) : undefined;
    throw new CairnError(
      "store_unreadable",
      `cannot use ${home} as the memory root: ${reason}${blocker ? ` (${blocker})` : ""}; point CAIRN_HOME or --home at a folder you can write`,
      { cause: error },
    );
  }
}

/** The nearest existing path at or above `home`, when it is a file rather than a folder. */
function fileInTheWay(home: string): string | undefined {
  for (let path = home; ; path = dirname(path)) {
    try {
      return statSync(path).isDirectory() ? undefined : path;
    } catch {
      if (dirname(path) === path) return undefined;
    }
  }
}
