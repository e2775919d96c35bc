import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleCli, runBundled } from "./support/cliBundle.js";
import { type ChaosHome, chaosEnv, makeChaosHome } from "./support/home.js";
import { inspectStore } from "./support/inspect.js";
import { writeSessions } from "./support/sessions.js";

/** A tiny tmpfs needs root and a kernel that lets this sandbox mount; the suite says when it cannot. */
function tryMount(dir: string, sizeKb: number): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeKb}k`, "tmpfs", dir], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

function unmount(dir: string): void {
  try {
    execFileSync("umount", ["-l", dir], { stdio: "pipe" });
  } catch {
    // Already gone.
  }
}

function oneClearLine(stderr: string): boolean {
  const lines = stderr.trim().split("\n");
  return lines.length === 1 && /^cairn: /.test(lines[0] ?? "");
}

describe("storage faults: one clear error, non-zero exit, the data that is there untouched", () => {
  let main: string;
  let home: ChaosHome;
  const summary: string[] = [];

  beforeAll(async () => {
    main = bundleCli();
    home = makeChaosHome("storage");
    writeSessions({ codex: home.codex, claude: home.claude }, { count: 6, projects: 2, salt: 5 });
    home.writeConfig();
    const seeded = await runBundled(main, ["run"], chaosEnv(home));
    expect(seeded.code, seeded.stderr).toBe(0);
  });

  afterAll(() => {
    console.log(`[chaos:storage] ${summary.join("; ")}`);
  });

  /** A copy of the seeded store in a fresh CAIRN_HOME, checkpointed so all data is in the main file. */
  function copyStore(name: string, into?: string): { dir: string; db: string } {
    const dir = into ?? join(home.root, name);
    // 0700 as cairn makes it: a looser folder would add the permissions notice to the one error line.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const source = new Database(join(home.home, "cairn.db"));
    source.pragma("wal_checkpoint(TRUNCATE)");
    source.close();
    copyFileSync(join(home.home, "cairn.db"), join(dir, "cairn.db"));
    copyFileSync(join(home.home, "config.yaml"), join(dir, "config.yaml"));
    return { dir, db: join(dir, "cairn.db") };
  }

  it("a store written by a newer cairn (user_version 99)", async () => {
    const store = copyStore("newer");
    const db = new Database(store.db);
    db.pragma("user_version = 99");
    db.close();
    const before = readFileSync(store.db);
    const result = await runBundled(main, ["run"], { ...chaosEnv(home), CAIRN_HOME: store.dir });
    const same = readFileSync(store.db).equals(before);
    summary.push(`newer store: exit ${result.code}, one line ${oneClearLine(result.stderr)}, bytes unchanged ${same}`);
    expect(result.code).not.toBe(0);
    expect(oneClearLine(result.stderr), result.stderr).toBe(true);
    expect(result.stderr).toMatch(/newer cairn/);
    expect(same).toBe(true);
  });

  it("a corrupt database file (junk bytes; a header-valid file with garbage pages)", async () => {
    for (const variant of ["junk", "garbage-pages"] as const) {
      const store = copyStore(`corrupt-${variant}`);
      const bytes = readFileSync(store.db);
      if (variant === "junk")
        writeFileSync(store.db, Buffer.from(Array.from({ length: 65_536 }, (_, i) => (i * 7919) % 251)));
      else {
        for (let offset = 4096; offset < bytes.length; offset += 97) bytes[offset] = (offset * 31) % 256;
        writeFileSync(store.db, bytes);
      }
      const before = readFileSync(store.db);
      const result = await runBundled(main, ["status"], { ...chaosEnv(home), CAIRN_HOME: store.dir });
      const same = readFileSync(store.db).equals(before);
      summary.push(
        `corrupt (${variant}): exit ${result.code}, one line ${oneClearLine(result.stderr)}, bytes unchanged ${same}`,
      );
      expect(result.code, `${variant}: ${result.stdout}`).not.toBe(0);
      expect(oneClearLine(result.stderr), result.stderr).toBe(true);
      expect(same).toBe(true);
    }
  });

  it("a read-only store (read-only mount)", async () => {
    const mountPoint = join(home.root, "ro");
    if (!tryMount(mountPoint, 4096)) {
      summary.push("read-only: SKIPPED (cannot mount tmpfs here)");
      return;
    }
    try {
      const store = copyStore("ro-store", join(mountPoint, "cairn"));
      writeSessions({ codex: home.codex, claude: home.claude }, { count: 3, projects: 1, salt: 6 });
      execFileSync("mount", ["-o", "remount,ro", mountPoint], { stdio: "pipe" });
      const before = readFileSync(store.db);
      const result = await runBundled(main, ["run"], { ...chaosEnv(home), CAIRN_HOME: store.dir });
      const same = readFileSync(store.db).equals(before);
      summary.push(`read-only: exit ${result.code}, one line ${oneClearLine(result.stderr)}, bytes unchanged ${same}`);
      expect(result.code).not.toBe(0);
      expect(oneClearLine(result.stderr), result.stderr).toBe(true);
      expect(same).toBe(true);
    } finally {
      unmount(mountPoint);
    }
  });

  it("a full disk (tiny tmpfs filled to the last byte)", async () => {
    const mountPoint = join(home.root, "full");
    if (!tryMount(mountPoint, 2048)) {
      summary.push("full disk: SKIPPED (cannot mount tmpfs here)");
      return;
    }
    try {
      const store = copyStore("full-store", join(mountPoint, "cairn"));
      const before = inspectStore(store.db);
      // New input that needs space, then no space left.
      writeSessions({ codex: home.codex, claude: home.claude }, { count: 40, projects: 3, salt: 8 });
      const filler = join(mountPoint, "filler");
      try {
        writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024));
      } catch {
        // ENOSPC is the point: the filler takes whatever was left.
      }
      const result = await runBundled(main, ["run"], { ...chaosEnv(home), CAIRN_HOME: store.dir });
      rmSync(filler, { force: true });
      const after = inspectStore(store.db);
      summary.push(
        `full disk: exit ${result.code}, one line ${oneClearLine(result.stderr)} (${result.stderr.trim().slice(0, 90)}), integrity after ${after.integrity}, sessions ${before.sessions} -> ${after.sessions}, outputs ${before.outputs} -> ${after.outputs}`,
      );
      expect(result.code).not.toBe(0);
      expect(oneClearLine(result.stderr), result.stderr).toBe(true);
      expect(after.integrity).toBe("ok");
      expect(after.sessions).toBeGreaterThanOrEqual(before.sessions);
      expect(after.outputs).toBeGreaterThanOrEqual(before.outputs);
      expect(existsSync(store.db)).toBe(true);
    } finally {
      unmount(mountPoint);
    }
  });
});
