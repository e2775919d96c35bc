import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { cairnInvocation, shellCommand, shellWord } from "../../../util/cairnInvocation.js";
import { errorMessage } from "../../../util/errors.js";
import { consolidationPrompt } from "./consolidationPrompt.js";
import type { Consolidator } from "./types.js";

export type AgentCli = "codex" | "claude";

/**
 * Consolidation by an agent CLI the user already has, run as a sub-agent inside the staging folder:
 * no approvals, no network, writes limited to the workspace, no delegation. cairn keeps the lease alive
 * while it runs, kills it at the timeout, and validates what it wrote before publishing anything.
 * Claude Code's file tools could read anywhere, so every tool call goes through a PreToolUse hook
 * (`cairn hook confine`) that refuses paths outside the staging folder and any other tool.
 */
export function agentConsolidator(options: {
  cli: AgentCli;
  timeoutMs: number;
  summaryTokenLimit: number;
  /** Executable override (tests put a fake on PATH instead). */
  command?: string;
  /** The shell command of the confinement hook, minus `--root`; default: this cairn's `hook confine`. */
  confineCommand?: string;
}): Consolidator {
  return {
    mode: "agent",
    async consolidate(input, context) {
      const prompt = consolidationPrompt("consolidation_agent.md", options.summaryTokenLimit, {
        workspace: input.workspace.kind === "global" ? "global memory" : `memory of project ${input.workspace.name}`,
      });
      const confine = `${options.confineCommand ?? shellCommand(cairnInvocation(), ["hook", "confine"])} --root ${shellWord(input.dir)}`;
      const [command, args] = invocation(options.cli, input.dir, confine, options.command);
      const before = snapshot(input.root, input.dir);
      await runAgent({ command, args, cwd: input.dir, prompt, timeoutMs: options.timeoutMs, context });
      const changed = changedOutside(before, snapshot(input.root, input.dir));
      if (changed.length > 0) {
        throw new Error(`consolidation agent changed files outside its workspace: ${changed.slice(0, 5).join(", ")}`);
      }
      return { warnings: [] };
    },
  };
}

function invocation(cli: AgentCli, dir: string, confine: string, override?: string): [string, string[]] {
  if (cli === "codex") {
    return [
      override ?? "codex",
      [
        "exec",
        "--skip-git-repo-check",
        "--sandbox",
        "workspace-write",
        "--cd",
        dir,
        "-c",
        'approval_policy="never"',
        "-c",
        "sandbox_workspace_write.network_access=false",
        "-c",
        "features.collab=false",
        "-c",
        "memories.enabled=false",
        "-",
      ],
    ];
  }
  return [
    override ?? "claude",
    [
      "-p",
      "--no-session-persistence",
      "--output-format",
      "json",
      "--permission-mode",
      "acceptEdits",
      "--allowedTools",
      "Read,Write,Edit,MultiEdit,Glob,Grep,LS",
      "--disallowedTools",
      "Bash,WebFetch,WebSearch,Task",
      // No MCP server of the user's: only the file tools above, all of them behind the hook.
      "--strict-mcp-config",
      "--mcp-config",
      '{"mcpServers":{}}',
      "--settings",
      JSON.stringify(confinementSettings(confine)),
    ],
  ];
}

/**
 * Settings for the consolidation run: a PreToolUse hook on every tool. Hooks run before Claude Code's
 * permission modes and a blocking answer (exit 2) stops the call in every mode
 * (https://code.claude.com/docs/en/hooks#pretooluse). `|| exit 2` keeps it closed if the hook
 * itself cannot start, because any other exit code lets the call through.
 */
export function confinementSettings(confine: string): unknown {
  return {
    hooks: {
      PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `${confine} || exit 2`, timeout: 30 }] }],
    },
  };
}

async function runAgent(options: {
  command: string;
  args: string[];
  cwd: string;
  prompt: string;
  timeoutMs: number;
  context: { signal: AbortSignal; heartbeat: () => boolean };
}): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      stdio: ["pipe", "ignore", "pipe"],
      detached: true,
      env: { ...process.env, CAIRN_CONSOLIDATION: "1" },
    });
    let stderr = "";
    let settled = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(beat);
      options.context.signal.removeEventListener("abort", onAbort);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => {
      kill();
      finish(
        new Error(`consolidation agent ${options.command} timed out after ${options.timeoutMs} ms and was killed`),
      );
    }, options.timeoutMs);
    const beat = setInterval(() => {
      if (!options.context.heartbeat()) {
        kill();
        finish(new Error("phase-2 lease lost while the consolidation agent ran; stopped it"));
      }
    }, 5_000);
    const onAbort = () => {
      kill();
      finish(new Error("consolidation aborted"));
    };
    options.context.signal.addEventListener("abort", onAbort);
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => finish(new Error(`cannot run ${options.command}: ${errorMessage(error)}`)));
    child.on("exit", (code, signal) => {
      if (code === 0) finish();
      else
        finish(
          new Error(
            `consolidation agent ${options.command} exited with ${code ?? signal}: ${stderr.trim().slice(0, 200)}`,
          ),
        );
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.prompt);
  });
}

/** Every file under the memories root except the staging folder, with its size and mtime. */
function snapshot(root: string, exclude: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (dir: string) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (path === exclude) continue;
      if (entry.isDirectory()) visit(path);
      else {
        try {
          const stat = statSync(path);
          files.set(path, `${stat.size}:${stat.mtimeMs}`);
        } catch {
          files.set(path, "unreadable");
        }
      }
    }
  };
  visit(root);
  return files;
}

function changedOutside(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [path, stamp] of after) if (before.get(path) !== stamp) changed.push(path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed;
}
