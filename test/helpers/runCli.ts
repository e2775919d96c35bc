import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import type { Readable } from "node:stream";

const MAIN = join(import.meta.dirname, "..", "..", "src", "cli", "main.ts");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI entry point in a child process (TypeScript through tsx), like a user would. */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): CliResult {
  const result = spawnSync(process.execPath, ["--import", "tsx", MAIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, CAIRN_LLM_PROVIDER: "offline", ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.input !== undefined ? { input: options.input } : {}),
    timeout: 60_000,
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

/** A spawned process's exit status and whole output, once it closes. */
export function finished(child: { stdout: Readable; stderr: Readable } & ChildProcess): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((done) => child.once("close", (status) => done({ status, stdout, stderr })));
}
