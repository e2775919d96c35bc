import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRows, garbleTable, growStore } from "../helpers/largeStore.js";
import { bundleCli, runBundled, spawnCli } from "./support/cliBundle.js";
import { type ChaosHome, chaosEnv, makeChaosHome } from "./support/home.js";
import { inspectStore } from "./support/inspect.js";
import { writeSessions } from "./support/sessions.js";
import { waitFor } from "./support/waitFor.js";

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

describe("repairing a damaged store over 32 MB: interrupted, killed, or with a daemon running", () => {
  let main: string;
  let home: ChaosHome;
  /** The large store before and after the damage every case starts from, and the items a full repair saves. */
  let healthy: string;
  let damaged: string;
  let reference: number;
  let repairMs: number;
  const summary: string[] = [];

  beforeAll(async () => {
    main = bundleCli();
    home = makeChaosHome("repair");
    writeSessions({ codex: home.codex, claude: home.claude }, { count: 4, projects: 2, salt: 9 });
    home.writeConfig();
    const seeded = await runBundled(main, ["run"], chaosEnv(home));
    expect(seeded.code, seeded.stderr).toBe(0);
    damaged = join(home.root, "damaged.db");
    const db = new Database(join(home.home, "cairn.db"));
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    copyFileSync(join(home.home, "cairn.db"), damaged);
    growStore(damaged);
    healthy = join(home.root, "healthy.db");
    copyFileSync(damaged, healthy);
    // Twenty pages of garbage in the middle of the transcript items, as in the reproduction.
    garbleTable(damaged, "items", 20);
    const full = copyDamaged("reference");
    const repair = await runBundled(main, ["doctor", "--repair"], full.env);
    expect(repair.code, repair.stderr).toBe(0);
    repairMs = repair.ms;
    reference = countRows(full.db, "items");
    expect(reference).toBeGreaterThan(50_000);
  }, 180_000);

  afterAll(() => {
    console.log(`[chaos:repair] ${summary.join("; ")}`);
  });

  function copyDamaged(name: string, from = damaged): { dir: string; db: string; env: NodeJS.ProcessEnv } {
    const dir = join(home.root, name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    copyFileSync(from, join(dir, "cairn.db"));
    copyFileSync(join(home.home, "config.yaml"), join(dir, "config.yaml"));
    return { dir, db: join(dir, "cairn.db"), env: { ...chaosEnv(home), CAIRN_HOME: dir } };
  }

  /**
   * After a repair stopped anywhere: either the damaged store is still in place and still refused, or
   * the complete repaired one is; never a store that says it is fine with rows missing. A second repair
   * then finishes with every readable item.
   */
  async function expectDamagedOrComplete(store: { dir: string; db: string; env: NodeJS.ProcessEnv }) {
    // Still the damaged file (marked, or killed before the repair marked it), or the repaired one.
    const stillDamaged = readFileSync(store.db).equals(readFileSync(damaged));
    const doctor = await runBundled(main, ["doctor"], store.env);
    if (stillDamaged) {
      expect(doctor.code, doctor.stdout).toBe(1);
      expect(doctor.stdout).toContain("is DAMAGED");
      const again = await runBundled(main, ["doctor", "--repair"], store.env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/damaged file kept as .*cairn\.db\.damaged-/);
    } else {
      expect(doctor.code, doctor.stderr).toBe(0);
    }
    expect(countRows(store.db, "items")).toBe(reference);
    expect(existsSync(`${store.db}.damaged`)).toBe(false);
    expect(readdirSync(store.dir).filter((name) => name.includes(".repairing"))).toEqual([]);
    return stillDamaged ? "damaged kept" : "complete";
  }

  it("Ctrl-C or SIGTERM during the repair leaves the damaged store in place, marked, and removes the partial copy", async () => {
    const outcomes: string[] = [];
    for (const [index, fraction] of [0.15, 0.4, 0.65, 0.9].entries()) {
      const signal = index % 2 === 0 ? "SIGINT" : "SIGTERM";
      const store = copyDamaged(`interrupted-${index}`);
      const repair = spawnCli(main, ["doctor", "--repair"], store.env);
      await new Promise((resolve) => setTimeout(resolve, Math.round(repairMs * fraction)));
      repair.child.kill(signal);
      const exit = await repair.exited;
      // A signal before the repair began (node still starting) ends the process by the signal itself.
      if (exit.code === 130) {
        expect(oneClearLine(exit.stderr), exit.stderr).toBe(true);
        expect(exit.stderr).toContain("repair interrupted; nothing changed");
        expect(readdirSync(store.dir).filter((name) => name.includes(".repairing"))).toEqual([]);
      } else if (exit.signal === null) expect(exit.code, exit.stderr).toBe(0);
      outcomes.push(
        `${signal}@${Math.round(fraction * 100)}% exit ${exit.code}: ${await expectDamagedOrComplete(store)}`,
      );
    }
    summary.push(`interrupted (repair ${repairMs} ms, ${reference} items): ${outcomes.join(", ")}`);
    expect(outcomes.some((outcome) => outcome.includes("exit 130"))).toBe(true);
  });

  it("SIGKILL at any point of the repair never leaves a store that says it is fine with rows missing", async () => {
    const outcomes: string[] = [];
    for (const [index, fraction] of [0.1, 0.3, 0.5, 0.7, 0.85, 0.95, 1.0].entries()) {
      const store = copyDamaged(`killed-${index}`);
      const repair = spawnCli(main, ["doctor", "--repair"], store.env);
      await new Promise((resolve) => setTimeout(resolve, Math.round(repairMs * fraction)));
      repair.child.kill("SIGKILL");
      await repair.exited;
      outcomes.push(await expectDamagedOrComplete(store));
    }
    const kept = outcomes.filter((outcome) => outcome === "damaged kept").length;
    summary.push(
      `SIGKILL x${outcomes.length}: ${kept} left the damaged store marked, ${outcomes.length - kept} complete, 0 with rows missing`,
    );
    expect(kept).toBeGreaterThan(0);
  });

  it("with cairn serve running, the repair refuses and the daemon takes no write into the damaged store", async () => {
    const store = copyDamaged("served", healthy);
    const daemon = spawnCli(main, ["serve", "--port", "0", "--no-schedule"], store.env);
    let stderr = "";
    daemon.child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    try {
      const url = await waitFor(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1], 15_000);
      // The daemon opens the store on its first request; then the disk damages it under the daemon.
      const status = await fetch(`${url}/api/status`);
      expect(status.status).toBe(200);
      garbleTable(store.db, "items", 20);
      const repair = await runBundled(main, ["doctor", "--repair"], store.env);
      expect(repair.code).toBe(1);
      expect(oneClearLine(repair.stderr), repair.stderr).toBe(true);
      expect(repair.stderr).toMatch(/'cairn serve' daemon .* has the store at .* open; stop it/);
      const remember = await fetch(`${url}/api/memory/remember`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content: "written while the store was being repaired", scope: "global" }),
      });
      const answer = (await remember.json()) as { error?: string };
      summary.push(`serve: repair exit ${repair.code}; remember on the marked store ${remember.status}`);
      expect(remember.status).toBe(500);
      expect(answer.error).toContain("is damaged");
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
    const repair = await runBundled(main, ["doctor", "--repair"], store.env);
    expect(repair.code, repair.stderr).toBe(0);
    expect(countRows(store.db, "items")).toBe(reference);
  });
});
