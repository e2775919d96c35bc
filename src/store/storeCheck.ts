import { existsSync, statSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { errorMessage } from "../util/errors.js";
import { damagedStoreError, isMarkedDamaged, markDamaged, storeFaultOf } from "./storeFault.js";

/**
 * Stores up to this size get a full `PRAGMA quick_check` every time cairn opens them: it reads every
 * page, about 2 ms per MB, so this bounds the cost near 60 ms. Larger stores are checked by
 * `cairn doctor`, and any damaged page an operation meets marks the store damaged from then on.
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
 * earlier command, or (when small enough to check cheaply) one quick_check finds problems in.
 */
export function assertStoreUsable(path: string): void {
  if (path === ":memory:" || !existsSync(path)) return;
  if (isMarkedDamaged(path)) throw damagedStoreError(path);
  if (statSync(path).size > CHECK_AT_OPEN_MAX_BYTES) return;
  const problems = quickCheck(path, 1);
  if (problems.length === 0) return;
  markDamaged(path, problems[0]!);
  throw damagedStoreError(path, new Error(problems[0]!));
}
