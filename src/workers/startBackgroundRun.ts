import { spawn } from "node:child_process";
import { accessSync, constants, mkdirSync } from "node:fs";
import { cairnInvocation } from "../util/cairnInvocation.js";
import { heldBy } from "./runLock.js";

export interface BackgroundRunDecision {
  started: boolean;
  reason: string;
  pid?: number;
}

/** True in processes cairn itself started to run a model: their hooks must not start cairn again. */
export function isCairnInternal(env: NodeJS.ProcessEnv): boolean {
  return env.CAIRN_INTERNAL === "1" || env.CAIRN_CONSOLIDATION === "1";
}

/**
 * Starts `cairn hook run-background` detached from the caller (its own process group, no stdio, not
 * waited for), so an agent's start is never delayed by collection or a model call. Skipped inside
 * cairn's own model runs, when the memory root is not writable, and while another background run
 * holds the run lock; everything finer (a phase held by a terminal `cairn run`) the child and the
 * job queue's leases decide.
 */
export function startBackgroundRun(options: { home: string; env?: NodeJS.ProcessEnv }): BackgroundRunDecision {
  const env = options.env ?? process.env;
  if (isCairnInternal(env)) return { started: false, reason: "inside one of cairn's own model runs" };
  if (!storeAvailable(options.home)) return { started: false, reason: `memory root ${options.home} is not writable` };
  const holder = heldBy(options.home);
  if (holder) return { started: false, reason: `a background run is in progress (pid ${holder.pid})` };
  const invocation = cairnInvocation({ env });
  const child = spawn(invocation.command, [...invocation.args, "--home", options.home, "hook", "run-background"], {
    detached: true,
    stdio: "ignore",
    env,
  });
  // A spawn failure arrives as an event; without a listener it would crash the hook.
  child.on("error", () => {});
  child.unref();
  return { started: true, reason: "started", ...(child.pid ? { pid: child.pid } : {}) };
}

function storeAvailable(home: string): boolean {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    accessSync(home, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
