import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { errorMessage } from "../util/errors.js";
import { damagedStoreError, isMarkedDamaged, markDamaged, storeFaultOf } from "./storeFault.js";

/**
 * Stores up to this size get a full `PRAGMA quick_check` when cairn opens them changed since they were
 * last known clean: it reads every page, about 2 ms per MB, so this bounds the cost near 60 ms. Larger
 * stores are checked by `cairn doctor`, and any damaged page an operation meets marks the store damaged
 * from then on.
 */
export const CHECK_AT_OPEN_MAX_BYTES = 32 * 1024 * 1024;

export interface StoreHealth {
  path: string;
  exists: boolean;
  bytes: number;
  /** A command met damage earlier (the `.damaged` marker beside the store). */
  markedDamaged: boolean;
  /** "ok", or the first problems quick_check found (or why the file could not be read at all). */
  problems: string[];
}

/** Reads the whole store read-only and reports what quick_check finds; writes nothing. */
export function checkStoreHealth(path: string, maxProblems = 10): StoreHealth {
  const exists = existsSync(path);
  const health: StoreHealth = {
    path,
    exists,
    bytes: exists ? statSync(path).size : 0,
    markedDamaged: isMarkedDamaged(path),
    problems: [],
  };
  if (!exists) return health;
  health.problems = quickCheck(path, maxProblems);
  return health;
}

/** Damage problems of a store, or [] when it reads cleanly (or cannot be opened for another reason). */
function quickCheck(path: string, maxProblems: number): string[] {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    const rows = db.pragma(`quick_check(${maxProblems})`) as Array<{ quick_check: string }>;
    const problems = rows.map((row) => row.quick_check).filter((line) => line !== "ok");
    return problems;
  } catch (error) {
    return storeFaultOf(error) === "damaged" ? [errorMessage(error)] : [];
  } finally {
    db?.close();
  }
}

/**
 * Refuses a store known or found to be damaged, before anything writes into it: one marked by an
 * earlier command, or (when small enough to check cheaply) one quick_check finds problems in. The
 * check is skipped when the file and its WAL are exactly as they were when last known clean (see
 * `recordKnownClean`).
 */
export function assertStoreUsable(path: string): void {
  if (path === ":memory:" || !existsSync(path)) return;
  if (isMarkedDamaged(path)) throw damagedStoreError(path);
  const fingerprint = fileFingerprint(path);
  if (fingerprint === recordedFingerprint(path)) {
    openedClean.add(path);
    return;
  }
  if (statSync(path).size > CHECK_AT_OPEN_MAX_BYTES) return;
  const problems = quickCheck(path, 1);
  if (problems.length === 0) {
    writeFingerprint(path, fingerprint);
    openedClean.add(path);
    return;
  }
  markDamaged(path, problems[0]!);
  throw damagedStoreError(path, new Error(problems[0]!));
}

/** Stores this process opened known clean (checked, or unchanged since last known clean). */
const openedClean = new Set<string>();

/**
 * Called by a short command that opened the store known clean, finished without error and closed it:
 * only its SQLite transactions changed the file since, so it is clean as it leaves it and the next
 * open need not read every page again. Anything else that writes the file (another program, a copy,
 * a process that crashed or failed half-way, the disk) changes its change time, size or inode, and
 * the next open checks. Long-lived processes (the daemon, the MCP server) never call it.
 */
export function recordKnownClean(path: string): void {
  if (!openedClean.has(path) || !existsSync(path) || isMarkedDamaged(path)) return;
  const fingerprint = fileFingerprint(path);
  // A command that wrote nothing leaves the fingerprint as recorded: no write needed.
  if (fingerprint !== recordedFingerprint(path)) writeFingerprint(path, fingerprint);
}

/** The sidecar holding the fingerprint of the store when last known clean. */
export function checkedMarkerPath(path: string): string {
  return `${path}.checked`;
}

/**
 * Identity, size and modification and change times of the store and its WAL. The change time (ctime)
 * moves on every write and cannot be set back by a program, so equal fingerprints mean unchanged files.
 */
function fileFingerprint(path: string): string {
  const part = (file: string) => {
    try {
      const stat = statSync(file, { bigint: true });
      return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    } catch {
      return "-";
    }
  };
  return `${part(path)} ${part(`${path}-wal`)}`;
}

function recordedFingerprint(path: string): string | undefined {
  try {
    return readFileSync(checkedMarkerPath(path), "utf8").trim();
  } catch {
    return undefined;
  }
}

function writeFingerprint(path: string, fingerprint: string): void {
  try {
    writeFileSync(checkedMarkerPath(path), `${fingerprint}\n`, { mode: 0o600 });
  } catch {
    // Best-effort: without it the next open checks again.
  }
}
