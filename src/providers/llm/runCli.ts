import { type ChildProcess, spawn } from "node:child_process";
import { bodyStart } from "../scrub.js";
import { ProviderError } from "./types.js";

export interface RunCliOptions {
  provider: string;
  command: string;
  args: string[];
  stdin: string;
  timeoutMs: number;
  cwd?: string;
  /** Looked up through this environment's PATH. Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Time between SIGTERM and SIGKILL when the process must be stopped. */
  killGraceMs?: number;
}

export interface CliRun {
  stdout: string;
  stderr: string;
  /** null when the process ended on a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs an agent CLI with the prompt on stdin (no argv length limit, not visible in `ps`) and
 * collects its output. Resolves for any exit status: the provider reads the output first, because
 * the CLIs print their error detail on stdout as often as on stderr. Rejects with kind "timeout"
 * (after stopping the process), kind "config" when the executable cannot be started, or the
 * caller's abort reason.
 *
 * CAIRN_INTERNAL=1 is set for the child so that cairn's own hooks, installed into the same agents,
 * can recognise and skip these runs instead of collecting them as user sessions.
 */
export function runCli(options: RunCliOptions): Promise<CliRun> {
  return new Promise<CliRun>((resolve, reject) => {
    options.signal?.throwIfAborted();
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), CAIRN_INTERNAL: "1" },
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));

    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      finish();
    };
    // Settle at once rather than on "close": a grandchild holding the pipes open must not keep us waiting.
    const timer = setTimeout(() => {
      stopProcess(child, options.killGraceMs ?? 2_000);
      settle(() => reject(timeoutError(options)));
    }, options.timeoutMs);
    const onAbort = () => {
      stopProcess(child, options.killGraceMs ?? 2_000);
      settle(() => reject(options.signal?.reason));
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error) => settle(() => reject(spawnError(options, error))));
    child.on("close", (exitCode, signal) =>
      settle(() =>
        resolve({
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderr: Buffer.concat(stderr).toString("utf8"),
          exitCode,
          signal,
        }),
      ),
    );
    // A CLI that exits before reading its input closes the pipe (EPIPE); its exit status tells the story.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.stdin);
  });
}

/** The error for a CLI that ran and failed, with the start of what it said about why. */
export function exitError(provider: string, run: CliRun, detail?: string): ProviderError {
  const said = bodyStart(detail ?? (run.stderr.trim() || run.stdout));
  const status =
    run.exitCode === null
      ? `ended on ${run.signal ?? "a signal"}`
      : run.exitCode === 0
        ? "reported an error"
        : `exited with code ${run.exitCode}`;
  // Retryable: most CLI failures seen in practice are rate limits, overload and network trouble.
  return new ProviderError({
    provider,
    kind: "exit",
    message: `${provider}: ${status}${said ? `: ${said}` : ""}`,
    isRetryable: true,
    exitCode: run.exitCode ?? undefined,
    responseBody: (run.stderr || run.stdout).slice(0, 10_000),
  });
}

function stopProcess(child: ChildProcess, graceMs: number): void {
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.kill("SIGTERM");
  const escalate = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }, graceMs);
  escalate.unref();
}

function timeoutError(options: RunCliOptions): ProviderError {
  return new ProviderError({
    provider: options.provider,
    kind: "timeout",
    message: `${options.provider}: timed out after ${options.timeoutMs} ms; the process was stopped`,
    isRetryable: true,
  });
}

function spawnError(options: RunCliOptions, error: Error): ProviderError {
  const code = (error as NodeJS.ErrnoException).code;
  const missing = code === "ENOENT";
  return new ProviderError({
    provider: options.provider,
    kind: missing ? "config" : "exit",
    message: missing
      ? `${options.provider}: '${options.command}' was not found on PATH`
      : `${options.provider}: could not start '${options.command}': ${error.message}`,
    isRetryable: !missing,
    cause: error,
  });
}
