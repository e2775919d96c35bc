import {
  type ChildProcess,
  type SpawnSyncOptionsWithStringEncoding,
  type SpawnSyncReturns,
  spawnSync,
} from "node:child_process";
import { basename } from "node:path";
import type { Readable } from "node:stream";

/**
 * How long one spawned process may run in a test. Below the process tier's test timeout
 * (vitest.processes.config.ts), so a hung command fails with its own name, not as "Test timed out"
 * after some of the test's 5-15 commands.
 */
export const SPAWN_TIMEOUT_MS = 60_000;

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The command as a reader would type it, without this machine's paths to node and the repository. */
export function commandLine(command: string, args: readonly string[]): string {
  const words = [command === process.execPath ? "node" : command, ...args].map((word) =>
    word.startsWith("/") && word.length > 40 ? `…/${basename(word)}` : word,
  );
  return words.map((word) => (/^[\w@%+=:,./…-]+$/.test(word) ? word : JSON.stringify(word))).join(" ");
}

function timedOut(command: string, args: readonly string[], timeoutMs: number, output: string): Error {
  const tail = output.trim().slice(-400);
  return new Error(
    `${commandLine(command, args)} did not finish within ${timeoutMs / 1000} s and was killed${tail ? `; its last output:\n${tail}` : ""}`,
  );
}

/** spawnSync with a timeout whose failure names the command (text output). */
export function spawnSyncTimed(
  command: string,
  args: readonly string[],
  options: Omit<SpawnSyncOptionsWithStringEncoding, "encoding" | "timeout"> & {
    encoding?: "utf8";
    timeoutMs?: number;
  } = {},
): SpawnSyncReturns<string> {
  const { timeoutMs = SPAWN_TIMEOUT_MS, ...rest } = options;
  const result = spawnSync(command, args, { ...rest, encoding: "utf8", timeout: timeoutMs, killSignal: "SIGKILL" });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT") {
    throw timedOut(command, args, timeoutMs, `${result.stdout ?? ""}${result.stderr ?? ""}`);
  }
  return result;
}

/**
 * A spawned process's exit status and whole output, once it closes; past the timeout it is killed and
 * the promise rejects naming the command.
 */
export function finished(
  child: { stdout: Readable; stderr: Readable } & ChildProcess,
  timeoutMs = SPAWN_TIMEOUT_MS,
): Promise<CommandResult> {
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      const [command = "?", ...args] = child.spawnargs;
      reject(timedOut(command, args, timeoutMs, stdout + stderr));
    }, timeoutMs);
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
