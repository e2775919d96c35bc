import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readMemoryUrl } from "../../src/read/memoryUrl.js";
import { globalWorkspace } from "../../src/workspace/workspacePaths.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";
import { cliArgs, type TempHome, tempHome, writeSummary } from "../server/tempHome.js";

const hasMkfifo = process.platform !== "win32" && spawnSyncTimed("mkfifo", ["--help"]).error === undefined;

let temp: TempHome;
let dir: string;

beforeEach(() => {
  temp = tempHome({ "memories.enabled": true });
  writeSummary(temp.home, "global", "- Prefer small commits.");
  dir = globalWorkspace(join(temp.home, "memories")).dir;
  mkdirSync(join(dir, "notes"), { recursive: true });
});

afterEach(() => temp.cleanup());

/** The CLI in a child process: a regression blocks on open(2), which only a process boundary can stop. */
function cli(...args: string[]) {
  return spawnSyncTimed(process.execPath, cliArgs("--home", temp.home, ...args), {
    encoding: "utf8",
    env: temp.env,
    cwd: temp.project,
    timeoutMs: 30_000,
  });
}

describe.skipIf(!hasMkfifo)("special files in a workspace", () => {
  it("cairn read refuses a FIFO with a clear error instead of blocking", () => {
    expect(spawnSyncTimed("mkfifo", [join(dir, "pipe.md")]).status).toBe(0);
    const result = cli("read", "memory://global/pipe.md");
    expect(result.signal).toBeNull();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("memory://global/pipe.md is not a regular file");
  });

  it("injection skips a FIFO planted as the summary and still answers", () => {
    writeSummary(temp.home, { cwd: temp.project }, "- Run the linter.");
    const summary = join(dir, "memory_summary.md");
    rmSync(summary);
    expect(spawnSyncTimed("mkfifo", [summary]).status).toBe(0);
    const result = cli("inject", "--cwd", temp.project);
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Run the linter.");
    expect(result.stdout).not.toContain("Global memory");
  });

  it("still reads regular files and names a folder as a folder", () => {
    const options = { memoriesRoot: join(temp.home, "memories"), cwd: temp.project };
    expect(readMemoryUrl("memory://global", options).content).toContain("Prefer small commits.");
    expect(() => readMemoryUrl("memory://global/notes", options)).toThrow("memory://global/notes is a folder");
  });
});
