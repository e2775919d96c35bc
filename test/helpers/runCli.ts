import { spawn } from "node:child_process";
import { join } from "node:path";
import { type CommandResult, finished, spawnSyncTimed } from "./timedSpawn.js";

const MAIN = join(import.meta.dirname, "..", "..", "src", "cli", "main.ts");

export type CliResult = CommandResult;

/**
 * Runs the real CLI entry point in a child process (TypeScript through tsx), like a user would. One
 * that runs past the spawn timeout is killed and fails naming the command (test/helpers/timedSpawn.ts).
 */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): CliResult {
  const result = spawnSyncTimed(process.execPath, ["--import", "tsx", MAIN, ...args], {
    env: { ...process.env, CAIRN_LLM_PROVIDER: "offline", ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * As runCli, without blocking this process: for a CLI that talks to a server the test itself runs
 * (a loopback server cannot answer while spawnSync holds the event loop).
 */
export function runCliAsync(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    env: { ...process.env, CAIRN_LLM_PROVIDER: "offline", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return finished(child);
}
