import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import { runPhase1 } from "../../src/pipeline/phase1/runPhase1.js";
import { agentConsolidator } from "../../src/pipeline/phase2/consolidators/agentConsolidator.js";
import { confineToolCall } from "../../src/pipeline/phase2/consolidators/confineToolCall.js";
import { runPhase2 } from "../../src/pipeline/phase2/runPhase2.js";
import type { Storage } from "../../src/store/storage.js";
import { cairnInvocation, shellCommand } from "../../src/util/cairnInvocation.js";
import { DAY_MS } from "../../src/util/clock.js";
import { addSession, memoryStorage } from "../helpers/store.js";

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

  it("refuses every tool that is not a file tool: shell, web, sub-agents, MCP", () => {
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
const exits = { matcher: entry.matcher, inside: ask(process.cwd() + "/raw_memories.md"), outside: ask(${JSON.stringify(secret)}), strictMcp: args.includes("--strict-mcp-config") };
writeFileSync(${JSON.stringify(log)}, JSON.stringify(exits));
writeFileSync("MEMORY.md", "# Memory\\n- consolidated\\n");
writeFileSync("memory_summary.md", "v1\\nsummary\\n");
`,
    );
    chmodSync(fake, 0o755);
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await runPhase1({ storage, config, clock, llm: null });
    const confineCommand = shellCommand(cairnInvocation({ entry: resolve("src/cli/main.ts") }), ["hook", "confine"]);
    const consolidator = agentConsolidator({
      cli: "claude",
      command: fake,
      timeoutMs: 60_000,
      summaryTokenLimit: 5000,
      confineCommand,
    });
    const report = await runPhase2({ storage, config, clock, memoriesRoot: join(base, "memories"), consolidator });
    expect(report.outcome).toBe("succeeded");
    expect(JSON.parse(readFileSync(log, "utf8"))).toEqual({ matcher: "*", inside: 0, outside: 2, strictMcp: true });
  });
});

describe("agent-mode consolidation through the codex CLI", () => {
  let now: number;
  let storage: Storage;
  let base: string;
  let path: string | undefined;
  const clock = () => now;
  const config = validateConfig({});
  beforeEach(() => {
    now = 100 * DAY_MS;
    storage = memoryStorage(clock);
    base = mkdtempSync(join(tmpdir(), "cairn-confine-codex-"));
    path = process.env.PATH;
  });
  afterEach(() => {
    process.env.PATH = path;
    rmSync(base, { recursive: true, force: true });
  });

  it("overrides a permissive user config: workspace-write sandbox, no approvals, no network, no delegation", async () => {
    const log = join(base, "codex-effective.json");
    // A stand-in for `codex` on PATH that resolves its settings as codex does: the user's config.toml
    // first (here as permissive as a user can make it), then `--sandbox` and each `-c key=value` on
    // top. It records the settings the run would have, so a dropped flag shows as the user's value.
    const bin = join(base, "bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "codex"),
      `#!${process.execPath}
const { writeFileSync } = require("node:fs");
const args = process.argv.slice(2);
const settings = {
  sandbox_mode: "danger-full-access",
  approval_policy: "on-request",
  "sandbox_workspace_write.network_access": true,
  "features.collab": true,
  "memories.enabled": true,
};
let cd = process.cwd();
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === "--sandbox" || arg === "-s") settings.sandbox_mode = args[++i];
  else if (arg === "--cd" || arg === "-C") cd = args[++i];
  else if (arg === "-c" || arg === "--config") {
    const [key, ...rest] = args[++i].split("=");
    settings[key] = JSON.parse(rest.join("="));
  } else if (arg === "--dangerously-bypass-approvals-and-sandbox" || arg === "--yolo") {
    settings.sandbox_mode = "danger-full-access";
    settings.approval_policy = "never";
  }
}
let stdin = "";
process.stdin.on("data", (chunk) => { stdin += chunk; });
process.stdin.on("end", () => {
  writeFileSync(${JSON.stringify(log)}, JSON.stringify({ subcommand: args[0], cd, cwd: process.cwd(), prompt: stdin.length > 0, settings }));
  writeFileSync(cd + "/MEMORY.md", "# Memory\\n- consolidated\\n");
  writeFileSync(cd + "/memory_summary.md", "v1\\nsummary\\n");
});
`,
    );
    chmodSync(join(bin, "codex"), 0o755);
    process.env.PATH = `${bin}:${path ?? ""}`;
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await runPhase1({ storage, config, clock, llm: null });
    const consolidator = agentConsolidator({ cli: "codex", timeoutMs: 60_000, summaryTokenLimit: 5000 });
    const report = await runPhase2({ storage, config, clock, memoriesRoot: join(base, "memories"), consolidator });
    expect(report.outcome).toBe("succeeded");
    const run = JSON.parse(readFileSync(log, "utf8")) as { cd: string; cwd: string };
    expect(run).toMatchObject({ subcommand: "exec", prompt: true });
    // The agent works in the staging folder cairn validates, whatever folder it is told to use.
    expect(run.cd).toBe(run.cwd);
    expect(run.cwd.startsWith(join(base, "memories"))).toBe(true);
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
});
