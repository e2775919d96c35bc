import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import { runPhase1 } from "../../src/pipeline/phase1/runPhase1.js";
import { agentConsolidator, confinementSettings } from "../../src/pipeline/phase2/consolidators/agentConsolidator.js";
import { confineToolCall } from "../../src/pipeline/phase2/consolidators/confineToolCall.js";
import { runPhase2 } from "../../src/pipeline/phase2/runPhase2.js";
import type { Storage } from "../../src/store/storage.js";
import { cairnInvocation, shellCommand } from "../../src/util/cairnInvocation.js";
import { DAY_MS } from "../../src/util/clock.js";
import { addSession, memoryStorage } from "../helpers/store.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";

describe("the consolidation agent is confined to its workspace", () => {
  let base: string;
  let workspace: string;
  let secretFile: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "cairn-confine-"));
    workspace = join(base, "memories", "projects", "p");
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, "raw_memories.md"), "- input\n");
    secretFile = join(base, "id_rsa");
    writeFileSync(secretFile, "not for the model\n");
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const call = (tool_name: string, tool_input: Record<string, unknown>) =>
    confineToolCall({ hook_event_name: "PreToolUse", tool_name, tool_input }, workspace);

  it("allows file tools on the workspace's own files, new files included", () => {
    expect(call("Read", { file_path: join(workspace, "raw_memories.md") })).toEqual({ allow: true });
    expect(call("Write", { file_path: join(workspace, "skills", "new", "SKILL.md"), content: "x" })).toEqual({
      allow: true,
    });
    expect(call("Edit", { file_path: "MEMORY.md", old_string: "a", new_string: "b" })).toEqual({ allow: true });
    expect(call("Glob", { pattern: "**/*.md" })).toEqual({ allow: true });
    expect(call("Grep", { pattern: "^/etc/.*", path: workspace })).toEqual({ allow: true });
  });

  it("refuses any path outside it, through .., absolute globs or a symbolic link", () => {
    expect(call("Read", { file_path: secretFile }).allow).toBe(false);
    expect(call("Read", { file_path: join(workspace, "..", "..", "..", "id_rsa") }).allow).toBe(false);
    expect(call("Write", { file_path: join(base, "elsewhere.md"), content: "x" }).allow).toBe(false);
    expect(call("Glob", { pattern: "/home/**/.ssh/*" }).allow).toBe(false);
    expect(call("Glob", { pattern: "../../**" }).allow).toBe(false);
    expect(call("Grep", { pattern: "BEGIN", path: base }).allow).toBe(false);
    expect(call("Grep", { pattern: "BEGIN", glob: "../*" }).allow).toBe(false);
    expect(call("LS", { path: "/" }).allow).toBe(false);
    symlinkSync(secretFile, join(workspace, "link.md"));
    expect(call("Read", { file_path: join(workspace, "link.md") }).allow).toBe(false);
  });

  it("refuses globs whose brace alternatives are absolute, start at a home or climb with ..", () => {
    for (const pattern of [
      "{/etc/*,x}",
      "src/{a,/home/**/.ssh/*}",
      "{,/}etc/passwd",
      "{x,~/.ssh/*}",
      "{..,a}/*",
      "a/{b,..}/../*",
    ]) {
      expect(call("Glob", { pattern }).allow, pattern).toBe(false);
    }
    expect(call("Grep", { pattern: "BEGIN", glob: "{*.md,/etc/*}" }).allow).toBe(false);
    // Braces that stay inside are the globs an agent writes every day.
    for (const pattern of ["**/*.{md,txt}", "skills/{deploy,release}/SKILL.md", "{MEMORY,memory_summary}.md"]) {
      expect(call("Glob", { pattern }), pattern).toEqual({ allow: true });
    }
  });

  it("judges a new file by its nearest existing folder, symbolic links followed", () => {
    const outside = join(base, "outside");
    mkdirSync(outside);
    symlinkSync(outside, join(workspace, "linked"));
    const write = call("Write", { file_path: join(workspace, "linked", "deeper", "new.md"), content: "x" });
    expect(write).toEqual({ allow: false, reason: expect.stringContaining("is outside the workspace") });
    expect(call("Write", { file_path: join(workspace, "fresh", "deeper", "new.md"), content: "x" })).toEqual({
      allow: true,
    });
  });

  it("refuses a sibling folder whose name starts with the workspace's, a drive letter, and a spaced ..", () => {
    const sibling = `${workspace}-other`;
    mkdirSync(sibling);
    writeFileSync(join(sibling, "MEMORY.md"), "another project\n");
    expect(call("Read", { file_path: join(sibling, "MEMORY.md") }).allow).toBe(false);
    expect(call("Glob", { pattern: "C:/Users/*/.ssh/*" }).allow).toBe(false);
    expect(call("Glob", { pattern: "{a, ..}/*" }).allow).toBe(false);
  });

  it("refuses paths and globs that are not strings, and reads Grep's pattern as a regex, not a path", () => {
    expect(call("Read", { file_path: 42 })).toEqual({ allow: false, reason: "Read: file_path must be a path" });
    expect(call("Glob", { pattern: ["/etc/*"] })).toEqual({ allow: false, reason: "Glob: pattern must be a string" });
    expect(call("Grep", { pattern: "/etc/passwd", path: workspace })).toEqual({ allow: true });
    expect(call("Grep", { pattern: "x", glob: "/etc/*" })).toEqual({
      allow: false,
      reason: "Grep: glob /etc/* reaches outside the workspace",
    });
  });

  it("refuses every tool that is not a file tool: shell, web, sub-agents, MCP", () => {
    expect(call("TodoWrite", { todos: [] })).toEqual({ allow: true });
    expect(call("Bash", { command: "ls" })).toEqual({ allow: false, reason: expect.stringContaining("(Bash)") });
    expect(confineToolCall({ tool_input: {} }, workspace)).toEqual({
      allow: false,
      reason: expect.stringContaining("(unknown tool)"),
    });
    for (const tool of ["Bash", "WebFetch", "WebSearch", "Task", "mcp__filesystem__read_file", ""]) {
      expect(call(tool, { command: "cat ~/.ssh/id_rsa" }).allow).toBe(false);
    }
    expect(confineToolCall("garbage", workspace).allow).toBe(false);
  });
});

describe("agent-mode consolidation through the claude CLI", () => {
  let now: number;
  let storage: Storage;
  let base: string;
  const clock = () => now;
  const config = validateConfig({});
  beforeEach(() => {
    now = 100 * DAY_MS;
    storage = memoryStorage(clock);
    base = mkdtempSync(join(tmpdir(), "cairn-confine-run-"));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("runs every tool call through the confinement hook, which blocks reads outside the workspace", async () => {
    const secret = join(base, "secret.txt");
    writeFileSync(secret, "private\n");
    const log = join(base, "hook-exits.json");
    // A stand-in for `claude -p`: it reads the hook from --settings and asks it about two reads, as
    // Claude Code does before each tool call, then writes the workspace files.
    const fake = join(base, "claude");
    writeFileSync(
      fake,
      `#!${process.execPath}
const { execSync } = require("node:child_process");
const { writeFileSync } = require("node:fs");
const args = process.argv.slice(2);
const settings = JSON.parse(args[args.indexOf("--settings") + 1]);
const entry = settings.hooks.PreToolUse[0];
const ask = (file_path) => {
  try {
    execSync(entry.hooks[0].command, { input: JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path } }), stdio: ["pipe", "ignore", "ignore"] });
    return 0;
  } catch (error) { return error.status; }
};
const after = (flag) => args[args.indexOf(flag) + 1];
const exits = { matcher: entry.matcher, type: entry.hooks[0].type, inside: ask(process.cwd() + "/raw_memories.md"), outside: ask(${JSON.stringify(secret)}), strictMcp: args.includes("--strict-mcp-config"), print: args.includes("-p"), persist: !args.includes("--no-session-persistence"), output: after("--output-format"), permissionMode: after("--permission-mode"), allowed: after("--allowedTools"), disallowed: after("--disallowedTools"), mcp: after("--mcp-config") };
writeFileSync(${JSON.stringify(log)}, JSON.stringify(exits));
writeFileSync("MEMORY.md", "# Memory\\n- consolidated\\n");
writeFileSync("memory_summary.md", "v1\\nsummary\\n");
`,
    );
    chmodSync(fake, 0o755);
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await runPhase1({ storage, config, clock, llm: null });
    const confineCommand = shellCommand(cairnInvocation({ entry: resolve("src/cli/main.ts") }), ["hook", "confine"]);
    // Found on PATH as `claude`, as a user's install is.
    const path = process.env.PATH;
    process.env.PATH = `${base}:${path ?? ""}`;
    const consolidator = agentConsolidator({
      cli: "claude",
      timeoutMs: 60_000,
      summaryTokenLimit: 5000,
      confineCommand,
    });
    const report = await runPhase2({
      storage,
      config,
      clock,
      memoriesRoot: join(base, "memories"),
      consolidator,
    }).finally(() => {
      process.env.PATH = path;
    });
    expect(report.outcome).toBe("succeeded");
    // Print mode, nothing kept of the session, edits without asking but only with the file tools, no
    // shell, web or sub-agent, and no MCP server of the user's.
    expect(JSON.parse(readFileSync(log, "utf8"))).toEqual({
      matcher: "*",
      type: "command",
      inside: 0,
      outside: 2,
      strictMcp: true,
      print: true,
      persist: false,
      output: "json",
      permissionMode: "acceptEdits",
      allowed: "Read,Write,Edit,MultiEdit,Glob,Grep,LS",
      disallowed: "Bash,WebFetch,WebSearch,Task",
      mcp: '{"mcpServers":{}}',
    });
  });

  it("blocks the tool call when the confinement hook itself cannot start", () => {
    const settings = confinementSettings(join(base, "no-such-cairn")) as {
      hooks: { PreToolUse: Array<{ hooks: Array<{ command: string }> }> };
    };
    const hook = settings.hooks.PreToolUse[0]!.hooks[0]!.command;
    // Claude Code blocks the call only on exit code 2; any other code would let it through.
    expect(spawnSyncTimed("sh", ["-c", hook], { input: "{}" }).status).toBe(2);
  });
});

describe("agent-mode consolidation through the codex CLI", () => {
  let now: number;
  let storage: Storage;
  let base: string;
  let path: string | undefined;
  let log: string;
  const clock = () => now;
  const config = validateConfig({});
  beforeEach(() => {
    now = 100 * DAY_MS;
    storage = memoryStorage(clock);
    base = mkdtempSync(join(tmpdir(), "cairn-confine-codex-"));
    path = process.env.PATH;
    log = join(base, "codex-effective.json");
    // A stand-in for `codex` on PATH that parses its command line as codex does (unknown flags and a
    // prompt other than "-" for stdin are usage errors; outside a git repository it refuses without
    // --skip-git-repo-check) and resolves its settings: the user's config.toml first (here as
    // permissive as a user can make it), then `--sandbox` and each `-c key=value` on top. It records
    // the settings the run would have, so a dropped flag shows as the user's value. With
    // FAKE_CODEX_STRAY set it also writes that file, outside the folder it was given.
    const bin = join(base, "bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "codex"),
      `#!${process.execPath}
const { writeFileSync } = require("node:fs");
const args = process.argv.slice(2);
const usage = (message) => { process.stderr.write("error: " + message + "\\n"); process.exit(2); };
if (args[0] !== "exec") usage("expected the exec subcommand");
const settings = {
  sandbox_mode: "danger-full-access",
  approval_policy: "on-request",
  "sandbox_workspace_write.network_access": true,
  "features.collab": true,
  "memories.enabled": true,
};
let cd = process.cwd();
let skipGitCheck = false;
const positional = [];
for (let i = 1; i < args.length; i++) {
  const arg = args[i];
  if (arg === "--sandbox" || arg === "-s") settings.sandbox_mode = args[++i];
  else if (arg === "--cd" || arg === "-C") cd = args[++i];
  else if (arg === "--skip-git-repo-check") skipGitCheck = true;
  else if (arg === "-c" || arg === "--config") {
    const [key, ...rest] = args[++i].split("=");
    settings[key] = JSON.parse(rest.join("="));
  } else if (arg.startsWith("-") && arg !== "-") usage("unexpected argument " + arg);
  else positional.push(arg);
}
if (positional.length !== 1 || positional[0] !== "-") usage("expected one prompt, - to read it from stdin: " + JSON.stringify(positional));
if (!skipGitCheck) { process.stderr.write("Not inside a trusted directory and --skip-git-repo-check was not specified.\\n"); process.exit(1); }
let stdin = "";
process.stdin.on("data", (chunk) => { stdin += chunk; });
process.stdin.on("end", () => {
  writeFileSync(${JSON.stringify(log)}, JSON.stringify({ cd, cwd: process.cwd(), prompt: stdin, settings }));
  writeFileSync(cd + "/MEMORY.md", "# Memory\\n- consolidated\\n");
  writeFileSync(cd + "/memory_summary.md", "v1\\nsummary\\n");
  if (process.env.FAKE_CODEX_STRAY) writeFileSync(process.env.FAKE_CODEX_STRAY, "stray\\n");
});
`,
    );
    chmodSync(join(bin, "codex"), 0o755);
    process.env.PATH = `${bin}:${path ?? ""}`;
  });
  afterEach(() => {
    process.env.PATH = path;
    delete process.env.FAKE_CODEX_STRAY;
    rmSync(base, { recursive: true, force: true });
  });

  const consolidate = async () => {
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await runPhase1({ storage, config, clock, llm: null });
    const consolidator = agentConsolidator({ cli: "codex", timeoutMs: 60_000, summaryTokenLimit: 5000 });
    return runPhase2({ storage, config, clock, memoriesRoot: join(base, "memories"), consolidator });
  };

  it("overrides a permissive user config: workspace-write sandbox, no approvals, no network, no delegation", async () => {
    const report = await consolidate();
    expect(report).toMatchObject({ outcome: "succeeded", error: null, mode: "agent" });
    const run = JSON.parse(readFileSync(log, "utf8")) as { cd: string; cwd: string; prompt: string };
    // The agent works in the staging folder cairn validates, whatever folder it is told to use, and
    // is told which memory it consolidates.
    expect(run.cd).toBe(run.cwd);
    expect(run.cwd.startsWith(join(base, "memories"))).toBe(true);
    expect(run.prompt).toContain("memory of project ");
    expect(run).toMatchObject({
      settings: {
        sandbox_mode: "workspace-write",
        approval_policy: "never",
        "sandbox_workspace_write.network_access": false,
        "features.collab": false,
        "memories.enabled": false,
      },
    });
  });

  it("fails the run, publishing nothing, when the agent changed a file outside its workspace", async () => {
    const stray = join(base, "memories", "stray.md");
    process.env.FAKE_CODEX_STRAY = stray;
    const report = await consolidate();
    expect(report.outcome).toBe("failed");
    expect(report.error).toContain(`consolidation agent changed files outside its workspace: ${stray}`);
    expect(readdirSync(join(base, "memories")).filter((name) => name.endsWith(".md"))).toEqual(["stray.md"]);
  });
});
