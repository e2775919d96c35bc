import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Storage } from "../../src/store/storage.js";
import { runCli } from "../helpers/runCli.js";

const SESSION = "5b0c1d2e-3f40-4a51-8b62-7c83d94ea0f1";
const TRANSCRIPT = fileURLToPath(
  new URL(`../fixtures/claude-code/projects/-home-dev-my-shop/${SESSION}.jsonl`, import.meta.url),
);

describe("cairn sessions with memories.exclude", () => {
  const dir = mkdtempSync(join(tmpdir(), "cairn-cli-exclude-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A memory root of its own and Claude Code's folder holding the one fixture session, no other agent. */
  function shopOnly(name: string) {
    const claude = join(dir, `claude-${name}`);
    mkdirSync(join(claude, "projects", "-home-dev-my-shop"), { recursive: true });
    copyFileSync(TRANSCRIPT, join(claude, "projects", "-home-dev-my-shop", `${SESSION}.jsonl`));
    const home = join(dir, `cairn-${name}`);
    const none = join(dir, "none");
    const env = {
      HOME: dir,
      CAIRN_HOME: home,
      CLAUDE_CONFIG_DIR: claude,
      CODEX_HOME: none,
      PI_CODING_AGENT_DIR: none,
      OMP_CODING_AGENT_DIR: none,
      GEMINI_CLI_HOME: none,
      XDG_DATA_HOME: none,
    };
    return { home, env };
  }

  it("shows an excluded session as excluded, without items, and counts them", () => {
    const claude = join(dir, "claude");
    mkdirSync(join(claude, "projects", "-home-dev-my-shop"), { recursive: true });
    copyFileSync(TRANSCRIPT, join(claude, "projects", "-home-dev-my-shop", `${SESSION}.jsonl`));
    const home = join(dir, "cairn");
    mkdirSync(home);
    writeFileSync(join(home, "config.yaml"), "memories:\n  exclude:\n    - /home/dev/my-shop/**\n");
    const env = {
      HOME: dir,
      CAIRN_HOME: home,
      CLAUDE_CONFIG_DIR: claude,
      CODEX_HOME: join(dir, "none"),
      PI_CODING_AGENT_DIR: join(dir, "none"),
      OMP_CODING_AGENT_DIR: join(dir, "none"),
      GEMINI_CLI_HOME: join(dir, "none"),
      XDG_DATA_HOME: join(dir, "none"),
    };
    expect(runCli(["scan"], { env }).status).toBe(0);
    const json = JSON.parse(runCli(["sessions", "--json"], { env }).stdout) as Array<Record<string, unknown>>;
    expect(json.find((row) => row.id === SESSION)).toMatchObject({ excluded: true, items: 0 });
    const table = runCli(["sessions"], { env }).stdout;
    expect(table).toContain("excluded");
    expect(table).toMatch(/^1 excluded by memories\.exclude/m);
  });

  it("shows a session whose extraction failed for good as dead, and names the command that retries it", () => {
    const { home, env } = shopOnly("dead");
    expect(runCli(["scan"], { env }).status).toBe(0);
    const storage = Storage.open(join(home, "cairn.db"));
    try {
      storage.jobs.enqueue({ kind: "phase1", key: SESSION, watermark: 1 });
      storage.db.prepare("UPDATE jobs SET status = 'dead' WHERE kind = 'phase1' AND key = ?").run(SESSION);
    } finally {
      storage.close();
    }
    const json = JSON.parse(runCli(["sessions", "--json"], { env }).stdout) as Array<Record<string, unknown>>;
    expect(json.find((row) => row.id === SESSION)).toMatchObject({ dead: true });
    const table = runCli(["sessions"], { env }).stdout;
    expect(table).toMatch(/\bdead\b.*5b0c1d2e/);
    expect(table).toMatch(/^1 dead \(extraction failed permanently\): 'cairn run --retry-dead' runs them again$/m);
  });

  it("shows a waiting session last updated before memories.maxRolloutAgeDays as too old, not pending, and says so", () => {
    const { home, env } = shopOnly("old");
    expect(runCli(["scan"], { env }).status).toBe(0);
    const old = JSON.parse(runCli(["sessions", "--json"], { env }).stdout) as Array<Record<string, unknown>>;
    expect(old.find((row) => row.id === SESSION)).toMatchObject({ state: "too old" });
    expect(runCli(["sessions"], { env }).stdout).toMatch(/^1 too old to extract \(.*maxRolloutAgeDays = \d+ days/m);
    // Inside the age window, the same session is pending.
    writeFileSync(join(home, "config.yaml"), "memories:\n  maxRolloutAgeDays: 3650\n");
    const pending = JSON.parse(runCli(["sessions", "--json"], { env }).stdout) as Array<Record<string, unknown>>;
    expect(pending.find((row) => row.id === SESSION)).toMatchObject({ state: "pending" });
  });
});
