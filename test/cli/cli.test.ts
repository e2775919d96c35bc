import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

describe("cairn CLI", () => {
  let home: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    home = tempDir("cairn-cli-");
    env = { CAIRN_HOME: home };
  });

  it("run --demo leaves $CAIRN_HOME alone and writes into a temporary folder", () => {
    const real = tempDir("cairn-real-");
    const result = runCli(["run", "--demo"], { env: { CAIRN_HOME: real } });
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(real)).toEqual([]);
    const where = /memory is in (.+)/.exec(result.stdout)?.[1] ?? "";
    expect(where.startsWith(join(tmpdir(), "cairn-demo-"))).toBe(true);
    expect(readdirSync(join(where, "projects")).length).toBeGreaterThan(0);
    rmSync(dirname(where), { recursive: true, force: true });
  });

  it("run --demo builds memory from the bundled sessions in --home and says where it is", () => {
    const result = runCli(["--home", home, "run", "--demo"], { env });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("extracted with offline: 3 memories");
    expect(result.stdout).toContain(`memory is in ${join(home, "memories")}`);
    const projects = readdirSync(join(home, "memories", "projects")).filter((name) => !name.startsWith("."));
    expect(projects.sort()).toEqual([expect.stringMatching(/^notes-cli-/), expect.stringMatching(/^weather-api-/)]);
    const memory = readFileSync(
      join(home, "memories", "projects", projects.find((p) => p.startsWith("weather"))!, "MEMORY.md"),
      "utf8",
    );
    expect(memory).toContain("Always use pnpm in this repo, never npm.");
    expect(memory).toContain("`pnpm test:e2e` failed");
  });

  it("inject gives a project its own memory and the global memory, never another project's", () => {
    const weather = runCli(["inject", "--cwd", "/srv/demo/weather-api/src"], { env });
    expect(weather.status).toBe(0);
    expect(weather.stdout).toContain("## Memory Guidance");
    expect(weather.stdout).toContain("Project memory (weather-api)");
    expect(weather.stdout).toContain("Always use pnpm in this repo, never npm.");
    expect(weather.stdout).not.toContain("settled on Vitest");
    const notes = runCli(["inject", "--cwd", "/srv/demo/notes-cli"], { env });
    expect(notes.stdout).toContain("Project memory (notes-cli)");
    expect(notes.stdout).not.toContain("Always use pnpm in this repo");
    const elsewhere = runCli(["inject", "--cwd", tempDir("cairn-other-")], { env });
    expect(elsewhere.stdout).toContain("Global memory");
    expect(elsewhere.stdout).not.toContain("Project memory");
  });

  it("inject prints nothing and exits 0 when there is no memory", () => {
    const empty = runCli(["inject", "--cwd", "/srv/demo/weather-api"], {
      env: { CAIRN_HOME: tempDir("cairn-empty-") },
    });
    expect(empty).toMatchObject({ status: 0, stdout: "" });
  });

  it("sessions --json lists each session with the documented fields", () => {
    const result = runCli(["sessions", "--json"], { env });
    const sessions = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(sessions).toHaveLength(3);
    for (const session of sessions) {
      expect(Object.keys(session)).toEqual(
        expect.arrayContaining(["id", "agent", "kind", "cwd", "items", "updatedAt", "invalidatedAt", "processedUntil"]),
      );
      expect(session.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(sessions.map((s) => s.agent).sort()).toEqual(["claude-code", "codex", "pi"]);
  });

  it("read serves memory:// files and refuses traversal with one clear line", () => {
    const ok = runCli(["read", "memory://root/MEMORY.md", "--cwd", "/srv/demo/notes-cli"], { env });
    expect(ok.stdout).toContain("# Memory: notes-cli");
    const rest = runCli(["read", "memory://root/MEMORY.md", "--cwd", "/srv/demo/notes-cli", "--offset", "10"], { env });
    expect(rest.stdout).toBe(ok.stdout.slice(10));
    const bad = runCli(["read", "memory://root/%2e%2e/%2e%2e/cairn.db"], { env });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("'.' and '..' segments are not allowed");
  });

  it("scan --json reports per-file problems and imports the rest of the file", () => {
    const dir = tempDir("cairn-codex-");
    const day = join(dir, "sessions", "2026", "10", "09");
    mkdirSync(day, { recursive: true });
    const meta = {
      timestamp: "2026-10-09T10:00:00.000Z",
      type: "session_meta",
      payload: {
        id: "0199e1a0-aaaa-7bbb-8ccc-000000000001",
        timestamp: "2026-10-09T10:00:00.000Z",
        cwd: "/srv/x",
        source: "cli",
      },
    };
    const user = {
      timestamp: "2026-10-09T10:00:01.000Z",
      type: "event_msg",
      payload: { type: "user_message", message: "hello there" },
    };
    writeFileSync(
      join(day, "rollout-2026-10-09T10-00-00-0199e1a0-aaaa-7bbb-8ccc-000000000001.jsonl"),
      `${JSON.stringify(meta)}\n{broken\n${JSON.stringify(user)}\n`,
    );
    const result = runCli(["scan", "--json", "--source", `codex=${dir}`], {
      env: { CAIRN_HOME: tempDir("cairn-scan-") },
    });
    const report = JSON.parse(result.stdout) as {
      totals: Record<string, number>;
      files: Array<{ status: string; problems: Array<{ line: number }> }>;
    };
    expect(report.totals.imported).toBeGreaterThanOrEqual(1);
    const codex = report.files.find((file) => file.problems.length > 0)!;
    expect(codex.problems).toEqual([expect.objectContaining({ line: 2 })]);
  });

  it("extract --json prints one entry per job with the documented fields", () => {
    const fresh = tempDir("cairn-extract-");
    // The example session is from 2026-10-05: widen the age window so it is eligible on any date.
    writeFileSync(join(fresh, "config.yaml"), "memories:\n  maxRolloutAgeDays: 3650\n  minRolloutIdleHours: 0\n");
    const demoEnv = { CAIRN_HOME: fresh };
    runCli(["scan", "--source", `pi=${join(import.meta.dirname, "..", "..", "examples", "demo", "pi")}`], {
      env: demoEnv,
    });
    const result = runCli(["extract", "--json"], { env: demoEnv });
    const report = JSON.parse(result.stdout) as { jobs: Array<Record<string, unknown>> };
    expect(report.jobs).toEqual([
      {
        sessionId: "4f3e2d1c-0b9a-4877-8665-544332211000",
        outcome: "succeeded",
        tokensIn: 0,
        tokensOut: 0,
        ms: expect.any(Number),
        error: null,
        warnings: [],
      },
    ]);
  });

  it("config set rejects an out-of-range value in one line and keeps the file", () => {
    const result = runCli(["config", "set", "memories.summaryInjectionTokenLimit", "3"], { env });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      "cairn: config: memories.summaryInjectionTokenLimit = 3 is out of range (100 to 200000)\n",
    );
    const ok = runCli(["config", "get", "memories.summaryInjectionTokenLimit"], { env });
    expect(ok.stdout.trim()).toBe("5000");
  });

  it("an unknown command fails with usage help and a non-zero exit", () => {
    const result = runCli(["frobnicate"], { env });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });
});
