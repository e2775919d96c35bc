import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { notStoredError } from "../../src/cli/commands/scan.js";
import { JobQueue } from "../../src/store/queue/jobQueue.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

describe("store faults in the pipeline", () => {
  let root: string;
  let now: number;
  let cairn: Cairn;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "cairn-faults-"));
    now = Date.parse("2026-10-01T10:00:00.000Z");
    cairn = new Cairn({
      home: join(root, "home"),
      env: { HOME: root },
      clock: () => now,
      importLanes: false,
      config: { "llm.provider": "offline", "memories.minRolloutIdleHours": 0 },
    });
  });

  afterEach(() => {
    cairn.close();
    rmSync(root, { recursive: true, force: true });
  });

  function pushSessions(count: number): void {
    for (let s = 0; s < count; s++) {
      for (const [role, text] of [
        ["user", `Session ${s}: always run the linter with pnpm lint before committing.`],
        ["assistant", "Noted."],
      ] as const) {
        now += 1000;
        cairn.appendHistory(`s${s}`, { role, text, ts: now }, { cwd: "/srv/app" });
      }
      cairn.endSession(`s${s}`);
    }
  }

  it("a full disk while extracting hands every lease back, spends no attempt and fails the command", async () => {
    pushSessions(6);
    const upsert = cairn.storage.stage1.upsert.bind(cairn.storage.stage1);
    const full = vi.spyOn(cairn.storage.stage1, "upsert").mockImplementation(() => {
      throw new BetterSqlite3.SqliteError("database or disk is full", "SQLITE_FULL");
    });
    await expect(cairn.extract()).rejects.toThrow("database or disk is full");
    const jobs = cairn.storage.jobs.list({ kind: "phase1" });
    expect(jobs).toHaveLength(6);
    expect(jobs.map((job) => [job.status, job.attempts, job.leaseOwner])).toEqual(
      Array.from({ length: 6 }, () => ["pending", 0, null]),
    );
    full.mockImplementation(upsert);
    const report = await cairn.extract();
    expect(report.jobs.map((job) => job.outcome)).toEqual(Array.from({ length: 6 }, () => "succeeded"));
  });

  it("after a crash, the next run takes over the leases of the dead process and status says nothing waits", async () => {
    pushSessions(3);
    // A process on this host that claimed the sessions and died (its pid no longer runs).
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const crashed = new JobQueue(cairn.storage.db, {
      clock: () => now,
      owner: { host: hostname(), pid: dead, isAlive: () => false },
    });
    for (const id of ["s0", "s1", "s2"]) crashed.enqueue({ kind: "phase1", key: id, watermark: 1 });
    expect(crashed.claim({ kind: "phase1", limit: 3 })).toHaveLength(3);
    expect(cairn.status().leases).toMatchObject({ held: 3, stopped: 3 });

    const report = await cairn.extract();
    expect(report.jobs.map((job) => job.outcome)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(cairn.status().leases).toEqual({ held: 0, stopped: 0, nextExpiry: null, lastExpiry: null });
  });

  it("recall still answers on a store that refuses writes", async () => {
    pushSessions(1);
    await cairn.extract();
    cairn.storage.db.pragma("query_only = ON");
    const response = await cairn.recall({ query: "linter before committing", scope: "all" });
    expect(response.results[0]?.content).toContain("always run the linter with pnpm lint");
    expect(response.warnings.join(" ")).toContain("usage counters not updated");
  });

  it("a scan whose files could not be stored says how many and why", async () => {
    // A full disk: the write that records each file fails with SQLITE_FULL, rolling its items back.
    vi.spyOn(cairn.storage.sourceFiles, "save").mockImplementation(() => {
      throw new BetterSqlite3.SqliteError("database or disk is full", "SQLITE_FULL");
    });
    const report = await cairn.scan({ overrides: { codex: [join(FIXTURES, "codex")] }, only: ["codex"] });
    const error = notStoredError(report, cairn.paths.database);
    expect(report.totals.failed).toBeGreaterThan(0);
    expect(error?.message).toBe(
      `${report.totals.failed} of ${report.files.length} files were not stored in ${cairn.paths.database} (database or disk is full); they are read again by the next scan once the store takes writes (see 'cairn doctor')`,
    );
  });
});

describe("an existing CAIRN_HOME with loose permissions", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("is tightened to 0700 and its store files to 0600 when cairn opens it, said once on stderr", () => {
    root = mkdtempSync(join(tmpdir(), "cairn-perms-"));
    const home = join(root, "home");
    mkdirSync(home);
    const first = new Cairn({ home, env: { HOME: root } });
    void first.storage;
    first.close();
    chmodSync(home, 0o755);
    chmodSync(join(home, "cairn.db"), 0o644);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      for (let open = 0; open < 2; open++) {
        const cairn = new Cairn({ home, env: { HOME: root } });
        void cairn.storage;
        cairn.close();
      }
      expect(statSync(home).mode & 0o777).toBe(0o700);
      expect(statSync(join(home, "cairn.db")).mode & 0o777).toBe(0o600);
      const notices = stderr.mock.calls.map(([line]) => String(line));
      expect(notices).toEqual([
        `cairn: made the memory root readable by you only: ${home} 755->700, ${join(home, "cairn.db")} 644->600\n`,
      ]);
    } finally {
      stderr.mockRestore();
    }
  });
});
