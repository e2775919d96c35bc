import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { findOnPath } from "../../src/providers/llm/findOnPath.js";
import { bin, cairn, installedPackage, packageName, prefix, userHome } from "./installedCli.js";

const version = (JSON.parse(readFileSync(join(installedPackage, "package.json"), "utf8")) as { version: string })
  .version;

describe(`the installed package on Node.js ${process.version}`, () => {
  it("ships built and runs nothing at install: no build or install script a user's npm would run or warn about", () => {
    const { scripts = {} } = JSON.parse(readFileSync(join(installedPackage, "package.json"), "utf8")) as {
      scripts?: Record<string, string>;
    };
    for (const hook of ["preinstall", "install", "postinstall", "prepare"]) expect(scripts[hook], hook).toBeUndefined();
    expect(existsSync(join(installedPackage, "dist", "cli", "main.cjs"))).toBe(true);
  });

  it("prints its version from the prefix's bin", () => {
    const result = cairn(userHome(), ["--version"]);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(version);
  });

  // `npx <package>` runs the bin named like the package when a package has several (npm exec's rule).
  it(`installs two commands, \`cairn\` and \`${packageName}\` (what \`npx ${packageName}\` runs), the same program`, () => {
    const { bin: bins } = JSON.parse(readFileSync(join(installedPackage, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    expect(bins[packageName]).toBe(bins.cairn);
    const user = userHome();
    const named = spawnSync(join(prefix, "bin", packageName), ["--version"], {
      cwd: user.home,
      env: user.env,
      encoding: "utf8",
    });
    expect(named.stderr).toBe("");
    expect(named.stdout.trim()).toBe(version);
    const remembered = spawnSync(
      join(prefix, "bin", packageName),
      ["remember", "--scope", "global", "Deploys go out on Tuesdays"],
      {
        cwd: user.home,
        env: user.env,
        encoding: "utf8",
      },
    );
    expect(remembered.status, remembered.stderr).toBe(0);
    expect(cairn(user, ["recall", "--scope", "global", "when do deploys go out"]).stdout).toContain(
      "Deploys go out on Tuesdays",
    );
  });

  it("starts a resident process after a recall (the default), which answers the next one the same", async () => {
    const user = userHome();
    expect(cairn(user, ["remember", "--scope", "global", "The staging database is Postgres 16"]).status).toBe(0);
    const debug = { ...user, env: { ...user.env, CAIRN_DEBUG: "1" } };
    const alone = cairn(debug, ["recall", "--scope", "global", "which database on staging"]);
    expect(alone.status, alone.stderr).toBe(0);
    expect(alone.stderr).toMatch(/cairn: resident process: started \(pid (\d+)\)/);
    const pid = Number(/started \(pid (\d+)\)/.exec(alone.stderr)![1]);
    const log = () => {
      try {
        return readFileSync(join(user.cairnHome, "background.log"), "utf8");
      } catch {
        return "";
      }
    };
    for (let waited = 0; !log().includes("resident: answering") && waited < 30_000; waited += 50)
      await new Promise((done) => setTimeout(done, 50));
    const answered = cairn(debug, ["recall", "--scope", "global", "which database on staging"]);
    expect(answered.stdout).toBe(alone.stdout);
    expect(answered.stdout).toContain("Postgres 16");
    expect(answered.stderr).toBe("");
    expect(log()).toContain("resident: answered with exit code 0");
    process.kill(pid, "SIGTERM");
    for (let waited = 0; log().match(/resident: ending: SIGTERM/) === null && waited < 10_000; waited += 50)
      await new Promise((done) => setTimeout(done, 50));
    expect(log()).toContain("resident: ending: SIGTERM");
  });

  it("keeps Node's compiled code in the user's cache folder, never in the package", () => {
    const user = userHome();
    const before = readdirSync(installedPackage, { recursive: true }).sort();
    const cache = join(user.home, "cache-home");
    expect(cairn({ ...user, env: { ...user.env, XDG_CACHE_HOME: cache } }, ["recall", "anything"]).status).toBe(0);
    // One folder per Node.js version, holding an entry per compiled module.
    const entries = readdirSync(join(cache, "cairn", "compile-cache"), { recursive: true, withFileTypes: true });
    expect(entries.filter((entry) => entry.isFile()).length).toBeGreaterThan(10);
    // Without XDG_CACHE_HOME: ~/.cache, as on any Linux desktop.
    expect(cairn(user, ["recall", "anything"]).status).toBe(0);
    expect(readdirSync(join(user.home, ".cache", "cairn", "compile-cache")).length).toBe(1);
    expect(readdirSync(installedPackage, { recursive: true }).sort()).toEqual(before);
  });

  // npm checks a package's `os` field with npm-install-checks before it installs anything (EBADPLATFORM).
  it("is refused by npm on Windows and accepted here, by the check npm runs on the manifest it ships", () => {
    const npm = realpathSync(findOnPath("npm") ?? "npm");
    const npmChecks = createRequire(npm)("npm-install-checks") as {
      checkPlatform(manifest: object, force: boolean, environment: { os: string; cpu: string }): void;
    };
    const manifest = JSON.parse(readFileSync(join(installedPackage, "package.json"), "utf8")) as object;
    expect(() => npmChecks.checkPlatform(manifest, false, { os: "win32", cpu: "x64" })).toThrow(
      expect.objectContaining({ code: "EBADPLATFORM" }),
    );
    for (const os of ["linux", "darwin"])
      expect(() => npmChecks.checkPlatform(manifest, false, { os, cpu: "x64" })).not.toThrow();
  });

  it("runs the demo: scan, extraction in worker threads, consolidation", () => {
    const user = userHome();
    const demoHome = join(user.home, "demo");
    // Repeated: Node 24 aborted about half of these runs when better-sqlite3 12 ran in the import lanes.
    for (let run = 0; run < 3; run++) {
      const result = cairn(user, ["run", "--demo", "--home", `${demoHome}-${run}`]);
      expect(result.signal).toBeNull();
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/extracted with offline: 3 memories/);
      expect(result.stdout).toContain("consolidated (offline)");
      expect(readFileSync(join(`${demoHome}-${run}`, "memories", "global", "memory_summary.md"), "utf8")).not.toBe("");
    }
  });

  it("passes doctor with the SQLite driver and sqlite-vec it installed", () => {
    const result = cairn(userHome(), ["doctor"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^store +\S+cairn\.db \(schema \d+, 0 sessions, 0 items\)$/m);
    expect(result.stdout).toMatch(/^sqlite-vec +loaded$/m);
  });
});

/** A Node.js older than the package supports (Node-API below 10), when this machine has one. */
function olderNode(): string | undefined {
  for (const node of [process.env.CAIRN_PACKAGE_OLD_NODE, "/usr/bin/node", "/usr/local/bin/node"]) {
    if (!node || !existsSync(node)) continue;
    const napi = spawnSync(node, ["-p", "process.versions.napi"], { encoding: "utf8" }).stdout.trim();
    if (Number(napi) < 10) return node;
  }
  return undefined;
}

describe("on a Node.js older than it supports", () => {
  const node = olderNode();
  // better-sqlite3 13 crashes such a Node.js in its first `new Database()`: no error a command could catch.
  it.skipIf(!node)("every command refuses with one line instead of crashing", () => {
    const user = userHome();
    for (const args of [["status"], ["doctor"], ["run", "--demo", "--home", join(user.home, "demo")]]) {
      const result = spawnSync(node ?? "", [bin, ...args], { cwd: user.home, env: user.env, encoding: "utf8" });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(
        /^cairn: cairn needs Node\.js 22\.14 or later: this Node\.js v[\d.]+ \(Node-API \d\) cannot load SQLite's native module; install a current Node\.js LTS and run cairn with it\n$/,
      );
    }
  });
});

describe("install and uninstall for each agent, into a fresh home", () => {
  it("claude-code: the hook it installs runs and injects what was remembered", () => {
    const user = userHome();
    expect(cairn(user, ["remember", "--scope", "global", "Releases are tagged from main"]).status).toBe(0);
    expect(cairn(user, ["config", "set", "memories.enabled", "true"]).status).toBe(0);
    const install = cairn(user, ["install", "claude-code"]);
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    const settingsPath = join(user.home, ".claude", "settings.json");
    const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as {
      hooks: { SessionStart: Array<{ hooks: Array<{ command: string }> }> };
    };
    const command = settings.hooks.SessionStart.flatMap((entry) => entry.hooks).find((hook) =>
      hook.command.includes("session-start"),
    )?.command;
    expect(command).toBeDefined();
    // The agent runs the command through a shell, with the session on stdin; no background run here.
    const hook = spawnSync("sh", ["-c", command ?? "false"], {
      cwd: user.home,
      env: { ...user.env, CLAUDE_CODE_ENTRYPOINT: "sdk-test" },
      input: JSON.stringify({ session_id: "s1", cwd: user.home, hook_event_name: "SessionStart", source: "startup" }),
      encoding: "utf8",
    });
    expect(hook.stderr).toBe("");
    expect(hook.status).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain("Releases are tagged from main");
    const uninstall = cairn(user, ["uninstall", "claude-code"]);
    expect(uninstall.stderr).toBe("");
    expect(uninstall.status).toBe(0);
    expect(existsSync(settingsPath) ? readFileSync(settingsPath, "utf8") : "").not.toContain("cairn");
  });

  it("codex: config.toml gets the MCP server and AGENTS.md the block, and both go again", () => {
    const user = userHome();
    const install = cairn(user, ["install", "codex"]);
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    const config = join(user.home, ".codex", "config.toml");
    expect(readFileSync(config, "utf8")).toContain("[mcp_servers.cairn]");
    expect(readFileSync(join(user.home, ".codex", "AGENTS.md"), "utf8")).toContain("cairn");
    const uninstall = cairn(user, ["uninstall", "codex"]);
    expect(uninstall.stderr).toBe("");
    expect(uninstall.status).toBe(0);
    expect(existsSync(config) ? readFileSync(config, "utf8") : "").not.toContain("cairn");
  });

  it("gemini: settings.json gets the hook and the MCP server, the hook injects what was remembered, and both go again", () => {
    const user = userHome();
    expect(cairn(user, ["remember", "--scope", "global", "Releases are tagged from main"]).status).toBe(0);
    expect(cairn(user, ["config", "set", "memories.enabled", "true"]).status).toBe(0);
    const install = cairn(user, ["install", "gemini"]);
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    const settingsPath = join(user.home, ".gemini", "settings.json");
    const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as {
      hooks: { SessionStart: Array<{ hooks: Array<{ command: string }> }> };
      mcpServers: Record<string, unknown>;
    };
    expect(settings.mcpServers.cairn).toBeDefined();
    const command = settings.hooks.SessionStart.flatMap((entry) => entry.hooks)[0]?.command;
    // Gemini CLI runs the command through a shell with the session on stdin (a sub-agent's, so no background run).
    const hook = spawnSync("sh", ["-c", command ?? "false"], {
      cwd: user.home,
      env: user.env,
      input: JSON.stringify({
        session_id: "s1",
        cwd: user.home,
        hook_event_name: "SessionStart",
        source: "startup",
        parent_session_id: "p1",
      }),
      encoding: "utf8",
    });
    expect(hook.stderr).toBe("");
    expect(hook.status).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain("Releases are tagged from main");
    const uninstall = cairn(user, ["uninstall", "gemini"]);
    expect(uninstall.stderr).toBe("");
    expect(uninstall.status).toBe(0);
    expect(existsSync(settingsPath)).toBe(false);
    // ~/.gemini was made by the install only: uninstall leaves no empty folder behind.
    expect(existsSync(join(user.home, ".gemini"))).toBe(false);
  });

  it("opencode: opencode.json gets the MCP server and AGENTS.md the block, and both go again", () => {
    const user = userHome();
    const install = cairn(user, ["install", "opencode"]);
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    const config = join(user.home, ".config", "opencode", "opencode.json");
    expect(JSON.parse(readFileSync(config, "utf8")).mcp.cairn.command).toContain("--background-run");
    expect(readFileSync(join(user.home, ".config", "opencode", "AGENTS.md"), "utf8")).toContain("cairn");
    const uninstall = cairn(user, ["uninstall", "opencode"]);
    expect(uninstall.stderr).toBe("");
    expect(uninstall.status).toBe(0);
    expect(existsSync(config)).toBe(false);
  });
});

describe("the servers of the installed package", () => {
  it("mcp answers a real MCP client over stdio: remember, then recall", async () => {
    const user = userHome();
    const client = new Client({ name: "cairn-package-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: bin, args: ["mcp"], cwd: user.home, env: user.env, stderr: "pipe" }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["recall", "remember", "read"]));
      const text = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text?: string }> };
        return result.content.map((part) => part.text ?? "").join("");
      };
      // An agent's memory for every project waits for the user before sessions see it; recall finds it.
      expect(
        await text("remember", { text: "Integration tests need the docker compose stack", scope: "global" }),
      ).toMatch(/^Remembered \(id (\d+)\)\.\n\n.*ask the user to run `cairn memory confirm \1`/s);
      expect(await text("recall", { query: "what do integration tests need", scope: "global" })).toContain(
        "Integration tests need the docker compose stack",
      );
    } finally {
      await client.close();
    }
  });

  it("serve listens on loopback, answers HTTP, and stops on SIGTERM", async () => {
    const user = userHome();
    const server = spawn(bin, ["serve", "--port", "0", "--no-schedule"], { cwd: user.home, env: user.env });
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    let stderr = "";
    const url = await new Promise<string>((resolve, reject) => {
      server.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (listening?.[1]) resolve(listening[1]);
      });
      void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    try {
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ ok: true });
      const status = await fetch(`${url}/api/status`);
      expect(status.status).toBe(200);
    } finally {
      server.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(stderr).toContain("stopped");
  });

  it("ui starts a server on loopback and serves the memory browser's page from the package", async () => {
    const user = userHome();
    const ui = spawn(bin, ["ui", "--no-open", "--port", "0"], { cwd: user.home, env: user.env });
    const exited = new Promise<number | null>((resolve) => ui.once("exit", (code) => resolve(code)));
    let stdout = "";
    const url = await new Promise<string>((resolve, reject) => {
      ui.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const printed = /^(http:\/\/127\.0\.0\.1:\d+\/ui\/)$/m.exec(stdout);
        if (printed?.[1]) resolve(printed[1]);
      });
      void exited.then((code) => reject(new Error(`ui exited with ${code}: ${stdout}`)));
    });
    try {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script src="app.js"');
      expect((await fetch(`${url}app.js`)).status).toBe(200);
      expect((await fetch(`${url}style.css`)).status).toBe(200);
    } finally {
      ui.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
