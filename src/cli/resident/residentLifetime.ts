import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { cairnPaths } from "../../config/paths.js";
import { checkBeforeLeaving } from "../../store/storeCheck.js";
import { errorMessage } from "../../util/errors.js";
import { type Activity, startResident } from "./residentServer.js";

// The life of a resident process cairn started by itself (src/cli/resident/startOnDemand.ts): it
// answers on the memory root's socket until nothing asked for `idleMs`, and ends sooner when it can
// no longer answer as the client would: its socket was removed or taken (the memory root moved or
// deleted), or the cairn it runs was upgraded or rebuilt (its clients are another build).

/** How often it looks at its idle time, its socket and its program files. */
const CHECK_EVERY_MS = 2000;

/** What identifies a file's content without reading it; undefined when it is gone. */
export type Stamp = string | undefined;

export interface Stamps {
  socket: Stamp;
  program: Stamp[];
}

export interface Ending {
  reason: string;
  /** Ended because nobody asked for a while: the store is its to check on the way out. */
  idle: boolean;
}

/** Why the process should end now, or undefined. Pure. */
export function stopReason(
  now: number,
  activity: Activity,
  idleMs: number,
  started: Stamps,
  current: Stamps,
): Ending | undefined {
  if (current.socket === undefined || current.socket !== started.socket)
    return { reason: "its socket was removed or replaced (the memory root moved or was deleted)", idle: false };
  if (current.program.some((stamp, i) => stamp !== started.program[i]))
    return { reason: "cairn was upgraded or rebuilt", idle: false };
  if (activity.inFlight === 0 && idleMs <= 0) return { reason: "resident.idleMinutes is 0 now", idle: true };
  if (activity.inFlight === 0 && now - activity.lastAt >= idleMs)
    return { reason: `no command line for ${formatMinutes(idleMs)} (resident.idleMinutes)`, idle: true };
  return undefined;
}

export interface Lifetime {
  home: string;
  idleMs: number;
  /** The CLI entry this process runs (its program bundle sits beside it). */
  entry: string;
  log: (line: string) => void;
  /**
   * `resident.idleMinutes` as the config says now, in ms, read at every check: a setting changed while
   * it runs takes effect (0 ends it). Without it, or when it fails, `idleMs` stays.
   */
  idleSetting?: () => Promise<number>;
}

/** Answers until `stopReason` says otherwise, a client asks it to stop, or a signal comes. */
export async function answerUntilIdle(lifetime: Lifetime): Promise<void> {
  const { home, idleMs, entry, log } = lifetime;
  let stop: (ending: Ending) => void = () => {};
  const ended = new Promise<Ending>((done) => {
    stop = done;
  });
  const resident = await startResident({
    home,
    log,
    onStop: () => stop({ reason: "asked to stop by another cairn command", idle: false }),
  });
  if (!resident) return;
  log(`resident: pid ${process.pid}, ends after ${formatMinutes(idleMs)} without a command line`);
  const programFiles = [entry, join(dirname(entry), "program.cjs")].filter((file) => existsSync(file));
  const stamps = (): Stamps => ({ socket: socketStamp(resident.path), program: programFiles.map(stampOf) });
  const started = stamps();
  let idle = idleMs;
  const check = () => {
    const ending = stopReason(Date.now(), resident.activity(), idle, started, stamps());
    if (ending) stop(ending);
  };
  const timer = setInterval(
    () => {
      if (!lifetime.idleSetting) return check();
      lifetime.idleSetting().then((current) => {
        idle = current;
        check();
      }, check);
    },
    Math.min(CHECK_EVERY_MS, Math.max(50, idleMs / 2)),
  );
  const onSignal = (signal: NodeJS.Signals) => stop({ reason: signal, idle: false });
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  const ending = await ended;
  clearInterval(timer);
  log(`resident: ending: ${ending.reason}`);
  await resident.close();
  // Its answers wrote to the store (usage counters), so the next command in its own process would
  // read every page first (quick_check, ~30 ms at 10,000 memories). Done here instead, where nobody
  // waits, and recorded when clean. Not when asked to stop: that caller wants the store at once.
  if (ending.idle) {
    try {
      checkBeforeLeaving(cairnPaths(home).database);
    } catch (error) {
      log(`resident: ${errorMessage(error)}`);
    }
  }
}

function stampOf(path: string): Stamp {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** A socket by its inode alone: what clients do with it is none of the stamp's business. */
function socketStamp(path: string): Stamp {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

function formatMinutes(ms: number): string {
  const minutes = ms / 60_000;
  return minutes >= 1 && Number.isInteger(minutes) ? `${minutes} min` : `${Math.round(ms / 1000)} s`;
}
