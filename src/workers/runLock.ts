import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createMemoryRoot } from "../config/createMemoryRoot.js";
import { processAlive } from "../util/processAlive.js";

/** A lock older than this is taken over even if its process id is alive (the id may have been reused). */
const MAX_LOCK_AGE_MS = 6 * 3_600_000;
const HALF_WRITTEN_GRACE_MS = 10_000;

export interface RunLockInfo {
  pid: number;
  startedAt: number;
}

export interface RunLock {
  release(): void;
}

export function runLockPath(home: string): string {
  return join(home, "pipeline.lock");
}

/**
 * A machine-wide "a background pipeline run is in progress" marker for the runs cairn starts on its own
 * (hook-started runs and daemon cycles), so that ten agents starting at once spawn one run, not ten.
 * Correctness does not depend on it: the job queue's leases already keep concurrent runs safe; this
 * only avoids pointless work. A lock whose process is gone is stale and taken over.
 */
export function acquireRunLock(home: string, now = Date.now()): RunLock | undefined {
  const path = runLockPath(home);
  createMemoryRoot(home);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const info: RunLockInfo = { pid: process.pid, startedAt: now };
      writeFileSync(path, JSON.stringify(info), { flag: "wx", mode: 0o600 });
      return { release: () => releaseIfOurs(path) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (heldBy(home, now)) return undefined;
      rmSync(path, { force: true });
    }
  }
  return undefined;
}

/** The live holder of the lock, if any (cheap: one small file read and a signal-0 probe). */
export function heldBy(home: string, now = Date.now()): RunLockInfo | undefined {
  let info: RunLockInfo;
  try {
    info = JSON.parse(readFileSync(runLockPath(home), "utf8")) as RunLockInfo;
  } catch {
    // Missing: no holder. Unreadable: being written right now (a live holder), unless it has stayed
    // unreadable long enough to be the leftover of a process that died between create and write.
    try {
      const mtime = statSync(runLockPath(home)).mtimeMs;
      return now - mtime < HALF_WRITTEN_GRACE_MS ? { pid: 0, startedAt: mtime } : undefined;
    } catch {
      return undefined;
    }
  }
  if (typeof info.pid !== "number" || typeof info.startedAt !== "number") return undefined;
  if (now - info.startedAt > MAX_LOCK_AGE_MS) return undefined;
  return processAlive(info.pid) ? info : undefined;
}

function releaseIfOurs(path: string): void {
  try {
    const info = JSON.parse(readFileSync(path, "utf8")) as RunLockInfo;
    if (info.pid === process.pid) rmSync(path, { force: true });
  } catch {
    // Already gone (or taken over as stale): nothing of ours to remove.
  }
}
