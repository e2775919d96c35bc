import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { errorMessage } from "../util/errors.js";
import { damagedStoreError, isMarkedDamaged, markDamaged, storeFaultOf } from "./storeFault.js";

/**
 * Stores up to this size get a full `PRAGMA quick_check` whenever cairn opens them changed since they
 * were last known clean: it reads every page, about 2 ms per MB, so this bounds the cost near 60 ms.
 */
export const CHECK_AT_OPEN_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Larger stores are read whole at most this often: by the first command that opens one changed once
 * this long has passed since its last full check, and by a long-lived process (the daemon) on its
 * schedule. Between full checks, any damaged page an operation meets marks the store damaged.
 */
export const FULL_CHECK_INTERVAL_MS = 3_600_000;

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
export function assertStoreUsable(path: string, now = Date.now()): void {
  if (path === ":memory:" || !existsSync(path)) return;
  if (isMarkedDamaged(path)) throw damagedStoreError(path);
  const fingerprint = fileFingerprint(path);
  const recorded = readRecord(path);
  if (fingerprint === recorded.fingerprint) {
    openedClean.add(path);
    return;
  }
  if (statSync(path).size > CHECK_AT_OPEN_MAX_BYTES && !fullCheckDue(recorded, now)) return;
  checkWhole(path);
  writeRecord(path, { fingerprint, fullCheckAt: now });
  openedClean.add(path);
}

/**
 * For a process that keeps the store open (the daemon): reads the whole store when its last full check
 * is older than FULL_CHECK_INTERVAL_MS, and marks it damaged when quick_check finds a problem, so that
 * this process's write guard and every other command refuse it from then on. True when it checked.
 */
export function checkStoreIfDue(path: string, now = Date.now()): boolean {
  if (path === ":memory:" || !existsSync(path) || isMarkedDamaged(path)) return false;
  const recorded = readRecord(path);
  if (!fullCheckDue(recorded, now)) return false;
  checkWhole(path);
  // The fingerprint stays the one last known clean: this process's writes since are not vouched for.
  writeRecord(path, { fingerprint: recorded.fingerprint ?? "", fullCheckAt: now });
  return true;
}

/**
 * For a process that kept the store open and is leaving, its store closed, with nobody waiting on it (a
 * resident process ending when idle): reads the whole store as the next command's open would, and
 * records it known clean when quick_check finds nothing, so that command need not. The fingerprint is
 * taken after the check, whose read-only connection may leave SQLite's WAL files behind; as for
 * `recordKnownClean`, what else changed the file meanwhile is another cairn's SQLite transactions. A
 * store too large to check at open is left as the open leaves it; damage marks it, as at open.
 */
export function checkBeforeLeaving(path: string, now = Date.now()): void {
  if (path === ":memory:" || !existsSync(path) || isMarkedDamaged(path)) return;
  if (fileFingerprint(path) === readRecord(path).fingerprint || statSync(path).size > CHECK_AT_OPEN_MAX_BYTES) return;
  checkWhole(path);
  writeRecord(path, { fingerprint: fileFingerprint(path), fullCheckAt: now });
}

function fullCheckDue(recorded: CheckRecord, now: number): boolean {
  return recorded.fullCheckAt === undefined || now - recorded.fullCheckAt >= FULL_CHECK_INTERVAL_MS;
}

/** quick_check over every page; a problem marks the store damaged and throws. */
function checkWhole(path: string): void {
  const problems = quickCheck(path, 1);
  if (problems.length === 0) return;
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
  const recorded = readRecord(path);
  // A command that wrote nothing leaves the fingerprint as recorded: no write needed.
  if (fingerprint !== recorded.fingerprint) writeRecord(path, { ...recorded, fingerprint });
}

/**
 * The sidecar holding the fingerprint of the store when last known clean (first line) and the time of
 * its last full check (second line, epoch milliseconds; absent in files older cairns wrote).
 */
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

interface CheckRecord {
  fingerprint?: string;
  fullCheckAt?: number;
}

function readRecord(path: string): CheckRecord {
  let text: string;
  try {
    text = readFileSync(checkedMarkerPath(path), "utf8");
  } catch {
    return {};
  }
  const [fingerprint, checkedAt] = text.split("\n");
  const at = Number(checkedAt);
  return {
    ...(fingerprint ? { fingerprint } : {}),
    ...(checkedAt && Number.isFinite(at) ? { fullCheckAt: at } : {}),
  };
}

function writeRecord(path: string, record: CheckRecord): void {
  try {
    writeFileSync(checkedMarkerPath(path), `${record.fingerprint ?? ""}\n${record.fullCheckAt ?? ""}\n`, {
      mode: 0o600,
    });
  } catch {
    // Best-effort: without it the next open checks again.
  }
}
