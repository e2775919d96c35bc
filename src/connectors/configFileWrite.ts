import { accessSync, constants, readFileSync, rmSync, statSync } from "node:fs";
import { writeFileAtomic } from "../util/atomicWrite.js";
import { CairnError } from "../util/errors.js";
import { linkTarget } from "../util/linkTarget.js";

/** How often an edit is recomputed on the agent's newer content before cairn gives up. */
const ATTEMPTS = 5;

export function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Refuses an agent config the user made read-only, before cairn writes anything. The mode bits decide,
 * not only EACCES: root may write a 0444 file, and a user who made it read-only still meant it.
 */
export function refuseReadOnly(file: string, rerun: string): void {
  const target = linkTarget(file);
  let mode: number;
  let owner: number;
  let group: number;
  try {
    ({ mode, uid: owner, gid: group } = statSync(target));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (!readOnly({ target, mode, owner, group })) return;
  const shown = target === file ? file : `${file} (a link to ${target})`;
  throw new CairnError(
    "connector_config_readonly",
    `${shown} is read-only (mode ${(mode & 0o777).toString(8).padStart(4, "0")}), so cairn changed nothing; make it writable (chmod u+w ${target}) and run '${rerun}' again`,
  );
}

function readOnly(file: { target: string; mode: number; owner: number; group: number }): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return (file.mode & 0o200) === 0;
  if (uid === 0) return (file.mode & 0o222) === 0;
  const bit = file.owner === uid ? 0o200 : process.getgroups?.().includes(file.group) ? 0o020 : 0o002;
  if ((file.mode & bit) === 0) return true;
  try {
    accessSync(file.target, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

export interface ConfigCommit {
  file: string;
  /** The content cairn read and computed `next` from (null: no file). */
  based: string | null;
  /** What to leave there; null deletes the file. */
  next: string | null;
  /** The edit again, on content the agent wrote after cairn read the file. */
  recompute(latest: string | null): string | null;
}

/**
 * Writes an agent config through its symlinks (the target is replaced atomically in its own folder;
 * the link stays a link) and only if the file still holds what the edit was computed from. An agent
 * that wrote meanwhile (Claude Code rewrites `~/.claude.json` often) keeps its write: the edit is
 * applied again to the new content. Returns the content the written edit was based on, and what was
 * written.
 */
export function commitConfig(commit: ConfigCommit): { based: string | null; next: string | null } {
  const target = linkTarget(commit.file);
  let { based, next } = commit;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (next === based) return { based, next };
    const basis = based;
    const unchanged = () => readOrNull(target) === basis;
    if (next === null ? removeIf(target, unchanged) : writeFileAtomic(target, next, modeOf(target), unchanged)) {
      return { based, next };
    }
    based = readOrNull(target);
    next = commit.recompute(based);
  }
  throw new CairnError(
    "connector_config_busy",
    `${commit.file} kept changing while cairn wrote it; close the agent and run the command again`,
  );
}

function removeIf(target: string, unchanged: () => boolean): boolean {
  if (!unchanged()) return false;
  rmSync(target, { force: true });
  return true;
}

/** The file's permission bits, so a private config stays private after the rewrite. */
export function modeOf(file: string): number {
  try {
    return statSync(file).mode & 0o777;
  } catch {
    return 0o600;
  }
}
