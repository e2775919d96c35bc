import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { projectIdentity } from "../../src/project/projectKey.js";
import { globalWorkspace, projectWorkspace } from "../../src/workspace/workspacePaths.js";

export interface TempHome {
  /** The fake user home (agents' homes live under it). */
  root: string;
  /** The cairn memory root. */
  home: string;
  /** A project directory sessions "start" in. */
  project: string;
  /** An environment that keeps every agent and cairn path inside `root` and every model offline. */
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/**
 * A throwaway user home for tests: cairn's root, the agents' homes and a project folder, all under one
 * temporary directory, so no test reads or writes the real home directory.
 */
export function tempHome(config: Record<string, unknown> = {}): TempHome {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "cairn-iface-")));
  const home = join(root, "cairn-home");
  const project = join(root, "work", "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const tree: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries({
    "llm.provider": "offline",
    "consolidation.mode": "offline",
    ...config,
  })) {
    const [group = "", name = ""] = key.split(".");
    tree[group] = { ...tree[group], [name]: value };
  }
  writeFileSync(join(home, "config.yaml"), stringify(tree));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    // The test's own temp folder (test/setup): without it a spawned CLI's temp files and tsx's
    // compile cache went to the machine's /tmp and stayed there.
    TMPDIR: process.env.TMPDIR,
    TMP: process.env.TMP,
    TEMP: process.env.TEMP,
    HOME: root,
    CAIRN_HOME: home,
    CLAUDE_CONFIG_DIR: join(root, ".claude"),
    CODEX_HOME: join(root, ".codex"),
    XDG_DATA_HOME: join(root, ".local", "share"),
    XDG_CONFIG_HOME: join(root, ".config"),
    GEMINI_CLI_HOME: join(root, ".gemini-home"),
    CAIRN_LLM_PROVIDER: "offline",
  };
  return { root, home, project, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Writes a project's (or the global) memory summary the way phase 2 publishes it. */
export function writeSummary(home: string, target: { cwd: string } | "global", text: string): void {
  const memories = join(home, "memories");
  const dir =
    target === "global"
      ? globalWorkspace(memories).dir
      : projectWorkspace(memories, projectIdentity(target.cwd).key).dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "memory_summary.md"), `v1\n${text}\n`);
}

/** `node --import <tsx> src/cli/main.ts`: the CLI from source, runnable from any cwd. */
export function cliArgs(...args: string[]): string[] {
  return [
    "--import",
    import.meta.resolve("tsx"),
    join(import.meta.dirname, "..", "..", "src", "cli", "main.ts"),
    ...args,
  ];
}
