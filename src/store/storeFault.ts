import { existsSync, statfsSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { CairnError, errorMessage } from "../util/errors.js";

/** What went wrong with the store itself (as opposed to the work cairn was doing with it). */
export type StoreFault = "damaged" | "full" | "readonly" | "io";

/**
 * Classifies an error by the SQLite result code better-sqlite3 puts on `code` (extended codes keep
 * the primary code as their prefix, e.g. SQLITE_CORRUPT_INDEX) or the errno of a failed file write.
 * See https://www.sqlite.org/rescode.html.
 */
export function storeFaultOf(error: unknown): StoreFault | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      if (code === "store_damaged" || code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB"))
        return "damaged";
      if (code === "disk_full" || code.startsWith("SQLITE_FULL") || code === "ENOSPC") return "full";
      if (code.startsWith("SQLITE_READONLY") || code === "EROFS") return "readonly";
      if (code.startsWith("SQLITE_IOERR")) return "io";
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** CairnError codes of store failures already explained in one line (see explainStoreError). */
const EXPLAINED = ["store_damaged", "disk_full", "store_readonly", "store_io", "store_replaced"];

/**
 * Rethrows a failure of the store itself met inside a job (phase 1, phase 2, hints, upkeep): it must
 * reach the command, which marks a damaged store and fails, instead of being kept as the job's own
 * failure while later commands go on writing. A file error without a SQLite code (a workspace file on
 * a full disk) stays the job's.
 */
export function rethrowStoreFault(error: unknown): void {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (EXPLAINED.includes(code) || (code.startsWith("SQLITE_") && storeFaultOf(current))))
      throw error;
    current = (current as { cause?: unknown }).cause;
  }
}

/** The marker left beside a store found damaged: later opens refuse it until `cairn doctor --repair`. */
export function damagedMarkerPath(databasePath: string): string {
  return `${databasePath}.damaged`;
}

export function isMarkedDamaged(databasePath: string): boolean {
  return databasePath !== ":memory:" && existsSync(damagedMarkerPath(databasePath));
}

/** Remembers that the store is damaged; best-effort, since a damaged disk may refuse this too. */
export function markDamaged(databasePath: string, reason: string): void {
  if (databasePath === ":memory:") return;
  try {
    writeFileSync(damagedMarkerPath(databasePath), `${new Date().toISOString()} ${reason}\n`, { mode: 0o600 });
  } catch {
    // The error the user sees already says the store is damaged.
  }
}

function diskIsFull(databasePath: string): boolean {
  try {
    return statfsSync(dirname(databasePath)).bavail === 0;
  } catch {
    return false;
  }
}

export function damagedStoreError(databasePath: string, cause?: unknown): CairnError {
  // SQLite's integrity report spans lines; the user gets one line.
  const detail = cause === undefined ? "" : ` (${errorMessage(cause).replace(/\s*\n\s*/g, "; ")})`;
  return new CairnError(
    "store_damaged",
    `the store at ${databasePath} is damaged${detail}; cairn writes nothing to it. Run 'cairn doctor' to see what is readable, then 'cairn doctor --repair' to keep the damaged file aside and rebuild the store from it`,
    cause === undefined ? {} : { cause },
  );
}

export function fullDiskError(databasePath: string, cause: unknown): CairnError {
  return new CairnError(
    "disk_full",
    `the disk holding ${databasePath} is full (${errorMessage(cause)}); nothing was lost, but the last write did not happen. Free some space and run the command again`,
    { cause },
  );
}

export function readonlyStoreError(databasePath: string, cause: unknown): CairnError {
  return new CairnError(
    "store_readonly",
    `the store at ${databasePath} cannot be written (${errorMessage(cause)}); check that the file and its folder are writable by you and the disk is not mounted read-only`,
    { cause },
  );
}

/**
 * Turns a store-level failure into the one-line error the user sees, marking a damaged store so that
 * later commands refuse to write into it. Other errors come back unchanged.
 */
export function explainStoreError(error: unknown, databasePath: string): unknown {
  if (error instanceof CairnError && EXPLAINED.includes(error.code)) return error;
  switch (storeFaultOf(error)) {
    case "damaged":
      markDamaged(databasePath, errorMessage(error));
      return damagedStoreError(databasePath, error);
    case "full":
      return fullDiskError(databasePath, error);
    case "readonly":
      return readonlyStoreError(databasePath, error);
    case "io":
      // SQLite reports a full disk met while growing its shared-memory or journal files as an I/O
      // error (SQLITE_IOERR_SHMSIZE, ...): the free space tells the two apart.
      return diskIsFull(databasePath)
        ? fullDiskError(databasePath, error)
        : new CairnError(
            "store_io",
            `reading or writing the store at ${databasePath} failed (${errorMessage(error)}); check the disk (dmesg), then run 'cairn doctor'`,
            { cause: error },
          );
    default:
      return error;
  }
}
