import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliArgs, type TempHome, tempHome, writeSummary } from "../server/tempHome.js";

let temp: TempHome;

beforeAll(() => {
  temp = tempHome({ "memories.enabled": true });
  writeSummary(temp.home, { cwd: temp.project }, "- Prefer small pull requests.");
});

afterAll(() => temp.cleanup());

function cairn(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  const result = spawnSync(process.execPath, cliArgs(...args), {
    cwd: temp.project,
    env: options.env ?? temp.env,
    input: options.input ?? "",
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("cairn hook session-start (whole process)", () => {
  it("prints Claude Code's hook JSON, exits 0 at once, and the detached run completes on its own", async () => {
    const input = JSON.stringify({
      session_id: "s1",
      cwd: temp.project,
      hook_event_name: "SessionStart",
      source: "startup",
    });
    const result = cairn(["hook", "session-start", "--agent", "claude-code"], { input });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    const output = JSON.parse(result.stdout);
    expect(output.hookSpecificOutput.additionalContext).toContain("Prefer small pull requests.");
    const log = join(temp.home, "background.log");
    await expect
      .poll(() => (existsSync(log) ? readFileSync(log, "utf8") : ""), { timeout: 15_000, interval: 200 })
      .toMatch(/pipeline completed in .*phase 2/);
    await expect.poll(() => existsSync(join(temp.home, "pipeline.lock")), { timeout: 5_000 }).toBe(false);
  });

  it("never fails the agent: garbage input and a broken config still exit 0", () => {
    const broken = cairn(["hook", "session-start"], {
      input: "not json at all",
      env: { ...temp.env, CAIRN_MEMORIES_ENABLED: "maybe" },
    });
    expect(broken).toMatchObject({ status: 0, stdout: "" });
    expect(broken.stderr).toMatch(/^cairn hook: config: CAIRN_MEMORIES_ENABLED=maybe/);
  });
});

describe("cairn install / uninstall (whole process)", () => {
  it("installs codex with this cairn's absolute command, reports it, and uninstalls", () => {
    mkdirSync(join(temp.root, ".codex"), { recursive: true });
    writeFileSync(join(temp.root, ".codex", "AGENTS.override.md"), "- Only review this week.\n");
    const installed = cairn(["install", "codex", "--json"]);
    expect(installed.status).toBe(0);
    const report = JSON.parse(installed.stdout);
    expect(report.changes.map((change: { action: string }) => change.action)).toEqual(["created", "created"]);
    expect(report.notes).toContainEqual(expect.stringMatching(/^warning: Codex reads .*AGENTS\.override\.md instead/));
    const config = readFileSync(join(temp.root, ".codex", "config.toml"), "utf8");
    // This very node, named through the link on PATH when there is one (stableNodePath).
    expect(realpathSync(JSON.parse(/^command = (.*)$/m.exec(config)?.[1] ?? '""'))).toBe(
      realpathSync(process.execPath),
    );
    expect(config).toMatch(
      /args = \["--import", "file:\/\/[^"]+", "[^"]+main\.ts", "--home", "[^"]+cairn-home", "mcp", "--background-run"\]/,
    );
    expect(config).toMatch(/env_vars = \[.*"OPENAI_API_KEY".*\]/);
    const removed = cairn(["uninstall", "codex"]);
    expect(removed.status).toBe(0);
    expect(removed.stdout).toMatch(/^deleted \(cairn had created it\) .*config\.toml: MCP server/m);
    expect(existsSync(join(temp.root, ".codex", "config.toml"))).toBe(false);
  });
  it("refuses to take over the user's own [mcp_servers.cairn] in one line, and leaves config.toml as it was", () => {
    const configFile = join(temp.root, ".codex", "config.toml");
    const user = `[mcp_servers.cairn]\ncommand = "npx"\nargs = ["-y", "cairn-notes-mcp"]\n`;
    mkdirSync(join(temp.root, ".codex"), { recursive: true });
    writeFileSync(configFile, user);
    const refused = cairn(["install", "codex"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /^cairn: .*config\.toml already has an MCP server named 'cairn' \(\[mcp_servers\.cairn\]\) that 'cairn install' did not write, so cairn changed nothing; rename or remove it and run 'cairn install codex' again\n$/,
    );
    expect(readFileSync(configFile, "utf8")).toBe(user);
    expect(cairn(["uninstall", "codex"]).status).toBe(0);
    expect(readFileSync(configFile, "utf8")).toBe(user);
    rmSync(join(temp.root, ".codex"), { recursive: true });
  });

  it("installs gemini: the hook command it wrote prints Gemini CLI's hook JSON with the memory; uninstall deletes the file it created", () => {
    const installed = cairn(["install", "gemini"]);
    expect(installed.status).toBe(0);
    expect(installed.stdout).toMatch(
      /^created .*settings\.json: SessionStart, PreCompress and SessionEnd hooks and MCP server 'cairn'$/m,
    );
    expect(installed.stdout).toMatch(/^restart Gemini CLI for the change to take effect$/m);
    const settingsFile = join(temp.root, ".gemini-home", ".gemini", "settings.json");
    const settings = JSON.parse(readFileSync(settingsFile, "utf8"));
    const hook = settings.hooks.SessionStart[0].hooks[0];
    expect(hook).toMatchObject({ name: "cairn-memory", type: "command", timeout: 10000 });
    // Gemini CLI runs it through a shell with the session on stdin (here a sub-agent's: no background run).
    const input = JSON.stringify({ session_id: "g1", cwd: temp.project, source: "startup", parent_session_id: "p" });
    const ran = spawnSync("sh", ["-c", hook.command], { cwd: temp.project, env: temp.env, input, encoding: "utf8" });
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout).hookSpecificOutput.additionalContext).toContain("Prefer small pull requests.");
    expect(cairn(["install", "gemini"]).stdout).toMatch(/already installed: nothing changed/);
    const removed = cairn(["uninstall", "gemini"]);
    expect(removed.status).toBe(0);
    expect(existsSync(settingsFile)).toBe(false);
    // GEMINI_CLI_HOME's folder and its .gemini were made by install only: both go, reported one line each.
    expect(removed.stdout).toMatch(/^removed .*\.gemini-home\/\.gemini: folder cairn had created, empty now$/m);
    expect(existsSync(join(temp.root, ".gemini-home"))).toBe(false);
  });

  it("installs opencode and uninstalls it again", () => {
    const installed = cairn(["install", "opencode", "--json"]);
    expect(installed.status).toBe(0);
    const report = JSON.parse(installed.stdout);
    expect(report.changes.map((change: { action: string }) => change.action)).toEqual(["created", "created"]);
    expect(report.notes).toContain("restart OpenCode for the change to take effect");
    const configFile = join(temp.root, ".config", "opencode", "opencode.json");
    const command = JSON.parse(readFileSync(configFile, "utf8")).mcp.cairn.command;
    expect(realpathSync(command[0])).toBe(realpathSync(process.execPath));
    expect(command).toEqual([
      expect.any(String),
      expect.stringMatching(/^--import$/),
      expect.any(String),
      expect.stringMatching(/main\.ts$/),
      "--home",
      temp.home,
      "mcp",
      "--background-run",
    ]);
    expect(cairn(["uninstall", "opencode"]).status).toBe(0);
    expect(existsSync(configFile)).toBe(false);
  });
});
