import { spawnSync } from "node:child_process";
import { join } from "node:path";

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
