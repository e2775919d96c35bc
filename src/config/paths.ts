import { chmodSync, type Stats, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The memory root: `$CAIRN_HOME`, else `~/.cairn`. */
export function cairnHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CAIRN_HOME?.trim();
  return fromEnv ? resolve(fromEnv) : join(homedir(), ".cairn");
}

export interface CairnPaths {
  home: string;
  config: string;
  database: string;
  memories: string;
  /** Embedding models fetched by `cairn embeddings download`, one folder per hub id. */
  models: string;
}

export function cairnPaths(home: string): CairnPaths {
  return {
    home,
    config: join(home, "config.yaml"),
    database: join(home, "cairn.db"),
    memories: join(home, "memories"),
    models: join(home, "models"),
  };
}

/** The files that hold what a user typed into their agents: readable by the user only. */
export const STORE_FILES = ["cairn.db", "cairn.db-wal", "cairn.db-shm", "config.yaml"];

/**
 * Tightens an existing memory root that other users can read (a folder made by hand, an older cairn,
 * a restored backup): the folder to 0700 and the store files to 0600. Only for a root the user owns,
 * so a shared or system folder is never changed behind an administrator's back. Returns what changed,
 * as "path mode->mode" strings, for one notice.
 */
export function tightenHomePermissions(home: string): string[] {
  const owner = process.getuid?.();
  const changed: string[] = [];
  const tighten = (path: string, mode: number, kind: "folder" | "file") => {
    let stat: Stats;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    // A folder named like a store file is the user's: 0600 would lock them out of it.
    if (kind === "file" && !stat.isFile()) return;
    const current = stat.mode & 0o777;
    if (owner === undefined || stat.uid !== owner || (current & ~mode) === 0) return;
    try {
      chmodSync(path, mode);
      changed.push(`${path} ${current.toString(8)}->${mode.toString(8)}`);
    } catch {
      // A read-only disk: nothing cairn can tighten, and nothing it will write there either.
    }
  };
  tighten(home, 0o700, "folder");
  for (const name of STORE_FILES) tighten(join(home, name), 0o600, "file");
  return changed;
}
