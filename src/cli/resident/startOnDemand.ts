import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { loadConfigCached } from "../../config/loadConfigCached.js";
import { cairnPaths } from "../../config/paths.js";
import { cairnInvocation } from "../../util/cairnInvocation.js";
import { errorMessage } from "../../util/errors.js";
import { isCairnInternal } from "../../workers/startBackgroundRun.js";
import { residentHome } from "./askResident.js";
import { answering, socketOfHome, socketPathHolds } from "./socketOfHome.js";

// A command line a resident process could have answered (recall, inject) ran in its own process:
// none was listening. This starts one, detached, so that the next such command line skips loading
// cairn (about two thirds of its time: docs/decisions/startup.md). It ends by itself after
// `resident.idleMinutes` without a command line (src/cli/resident/residentLifetime.ts).

export interface OnDemand {
  /** The command line after `cairn`, as the client saw it. */
  args: string[];
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Which build runs: a checkout run from its sources ("source") cannot start the bundle's resident. */
  build: string;
}

/** Why none is started after a command line no resident process would answer (most commands). */
export const NOT_ANSWERED_BY_A_RESIDENT = "not a command line a resident process answers";

/**
 * The memory root to start a resident process for, or why none is started. Pure: the caller checks
 * the store, the setting and the socket after this.
 */
export function onDemandHome(on: OnDemand): { home: string } | { skipped: string } {
  if (on.build === "source") return { skipped: "run from the sources, not the built bin" };
  // Windows is refused at install (docs/decisions/windows.md); a named pipe would need its own test.
  if (on.platform === "win32") return { skipped: "not on Windows" };
  if (isCairnInternal(on.env)) return { skipped: "inside one of cairn's own model runs" };
  // The client's own test: CAIRN_RESIDENT=off, another command, a relative --home, help.
  const home = residentHome({ args: on.args, env: on.env });
  return home === undefined ? { skipped: NOT_ANSWERED_BY_A_RESIDENT } : { home };
}

export interface Started {
  started: boolean;
  reason: string;
  pid?: number;
}

/**
 * Starts `cairn hook resident` for the memory root of `args` when nothing answers on its socket and
 * `resident.idleMinutes` is above 0. Only for a root that has a store: a recall of a root that does
 * not exist must not create one. Never throws: a resident process is only ever a speed-up.
 */
export async function startOnDemand(on: OnDemand): Promise<Started> {
  try {
    const target = onDemandHome(on);
    if ("skipped" in target) return { started: false, reason: target.skipped };
    const { home } = target;
    const paths = cairnPaths(home);
    if (!existsSync(paths.database)) return { started: false, reason: "no store in the memory root yet" };
    // The command printed the config's warnings already; a resident would decline such a config anyway.
    let warns = false;
    const config = await loadConfigCached({ file: paths.config, env: on.env, warn: () => (warns = true) });
    if (warns) return { started: false, reason: "the configuration warns" };
    const { idleMinutes } = config.resident;
    if (idleMinutes <= 0) return { started: false, reason: "resident.idleMinutes is 0" };
    // One that declined this command line (another environment, a config that warns) still answers others.
    if ((await residentState(home)).listening) return { started: false, reason: "a resident process listens already" };
    const invocation = cairnInvocation({ env: on.env });
    const child = spawn(
      invocation.command,
      [...invocation.args, "--home", home, "hook", "resident", "--idle-minutes", String(idleMinutes)],
      // Its own session and no stdio: an agent's hook that ran this command waits for nothing of it.
      // No code caches: it starts once in a while, in the background, and one written as it ends would
      // make folders again under a home that was removed meanwhile. It answers with each client's
      // environment, not its own, so the variable reaches no answer.
      { detached: true, stdio: "ignore", env: { ...on.env, NODE_DISABLE_COMPILE_CACHE: "1" }, cwd: home },
    );
    child.on("error", () => {});
    child.unref();
    return { started: true, reason: "started", ...(child.pid ? { pid: child.pid } : {}) };
  } catch (error) {
    return { started: false, reason: errorMessage(error) };
  }
}

export interface ResidentState {
  /** Where a resident process of this memory root listens. */
  socket: string;
  /** Whether one accepts connections there now (`cairn serve`'s, or one started on demand). */
  listening: boolean;
}

/** Whether a resident process answers for memory root `home` now (for `cairn doctor`). */
export async function residentState(home: string): Promise<ResidentState> {
  const place = socketOfHome(home);
  // Something else at that path counts as listening: a resident process could not use the place, and
  // starting one for every command line would only fail every time.
  const listening = socketPathHolds(place.path) === "other" || (await answering(place.path));
  return { socket: place.path, listening };
}
