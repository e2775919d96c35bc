import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireRunLock, heldBy, runLockPath } from "../../src/workers/runLock.js";

const dirs: string[] = [];
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), "cairn-lock-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited, so it is surely not alive. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid ?? 999_999;
}

describe("run lock", () => {
  it("is held by one holder at a time and released", () => {
    const dir = home();
    const lock = acquireRunLock(dir);
    expect(lock).toBeDefined();
    expect(heldBy(dir)?.pid).toBe(process.pid);
    expect(acquireRunLock(dir)).toBeUndefined();
    lock?.release();
    expect(existsSync(runLockPath(dir))).toBe(false);
    expect(heldBy(dir)).toBeUndefined();
    acquireRunLock(dir)?.release();
  });

  it("takes over a lock whose process is gone, a too old one, and a half-written one once it is old", () => {
    const dir = home();
    writeFileSync(runLockPath(dir), JSON.stringify({ pid: deadPid(), startedAt: Date.now() }));
    expect(heldBy(dir)).toBeUndefined();
    acquireRunLock(dir)?.release();
    writeFileSync(runLockPath(dir), JSON.stringify({ pid: process.pid, startedAt: Date.now() - 7 * 3_600_000 }));
    const lock = acquireRunLock(dir);
    expect(lock).toBeDefined();
    lock?.release();
    writeFileSync(runLockPath(dir), "");
    expect(acquireRunLock(dir)).toBeUndefined();
    const old = new Date(Date.now() - 60_000);
    utimesSync(runLockPath(dir), old, old);
    expect(acquireRunLock(dir)).toBeDefined();
  });
});
