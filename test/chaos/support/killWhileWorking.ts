import Database from "better-sqlite3";
import { mulberry32 } from "../../../bench/lib/syntheticCorpus.js";
import { spawnCli } from "./cliBundle.js";

/** Where a kill landed: inside a job of the worker (its lease still held), after it, or before any started. */
export type KillLanding = "during" | "after" | "idle" | "exited";

export interface KillTally {
  kills: number;
  during: number;
  after: number;
  idle: number;
  /** Runs that ended on their own before the kill (a `cairn ingest` that finished first). */
  exited: number;
}

export const emptyTally = (): KillTally => ({ kills: 0, during: 0, after: 0, idle: 0, exited: 0 });

/**
 * Starts the bundled CLI with `args`, waits until it holds a started job of one of `kinds` (the worker
 * is at work: its lease names this process), then SIGKILLs it after a random share of `workMs`. Says
 * where the kill landed, read from the store after the process is gone: a job still `running` under
 * this process's lease was cut in the middle. A process that starts no such job within `startMs` is
 * killed anyway (`idle`).
 */
async function killWhileWorking(options: {
  main: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  database: string;
  kinds: string[];
  random: () => number;
  workMs: number;
  startMs?: number;
}): Promise<KillLanding> {
  const spawned = spawnCli(options.main, options.args, options.env);
  const pid = spawned.child.pid;
  if (pid === undefined) throw new Error(`cairn ${options.args.join(" ")} did not start`);
  let exited = false;
  void spawned.exited.then(() => {
    exited = true;
  });
  const db = new Database(options.database, { readonly: true, fileMustExist: true });
  const held = db.prepare(
    `SELECT count(*) AS n FROM jobs WHERE status = 'running' AND started_at IS NOT NULL AND lease_owner LIKE ?
       AND kind IN (SELECT value FROM json_each(?))`,
  );
  const holds = () => (held.get(`${pid}@%`, JSON.stringify(options.kinds)) as { n: number }).n > 0;
  try {
    const deadline = Date.now() + (options.startMs ?? 15_000);
    let started = false;
    while (!exited && Date.now() < deadline) {
      if (holds()) {
        started = true;
        break;
      }
      await sleep(20);
    }
    if (started) await sleep(Math.floor(options.random() * options.workMs));
    if (exited) {
      await spawned.exited;
      return "exited";
    }
    spawned.child.kill("SIGKILL");
    const exit = await spawned.exited;
    if (exit.signal !== "SIGKILL") return "exited";
    if (!started) return "idle";
    return holds() ? "during" : "after";
  } finally {
    db.close();
  }
}

/** Adds a landing to the tally. */
function count(tally: KillTally, landing: KillLanding): void {
  if (landing !== "exited") tally.kills += 1;
  tally[landing] += 1;
}

/**
 * Rounds of `killWhileWorking` until `inside` kills landed inside the worker's job (or `rounds` ran
 * out, or `stop` says the work is over). Kill delays are drawn with a generator seeded by `seed`, up
 * to a bound that follows where kills land: shorter after a kill that came after the job (or a run
 * that finished first), a little longer after one inside it.
 */
export async function killRounds(options: {
  main: string;
  env: NodeJS.ProcessEnv;
  database: string;
  kinds: string[];
  seed: number;
  inside: number;
  rounds: number;
  /** The first bound of the delay after the job is seen running. */
  firstDrawMs: number;
  startMs: number;
  /** The command of a round, given the previous round's landing. */
  args: (last: KillLanding | undefined) => string[];
  stop?: (landing: KillLanding) => boolean;
}): Promise<KillTally> {
  const random = mulberry32(options.seed);
  const tally = emptyTally();
  let workMs = options.firstDrawMs;
  let last: KillLanding | undefined;
  for (let round = 0; tally.during < options.inside && round < options.rounds; round++) {
    last = await killWhileWorking({
      main: options.main,
      env: options.env,
      database: options.database,
      args: options.args(last),
      kinds: options.kinds,
      random,
      workMs,
      startMs: options.startMs,
    });
    count(tally, last);
    if (last === "after" || last === "exited") workMs = Math.max(50, Math.round(workMs * 0.6));
    else if (last === "during") workMs = Math.min(10_000, Math.round(workMs * 1.15));
    if (options.stop?.(last)) break;
  }
  return tally;
}

export function describeTally(tally: KillTally): string {
  return `${tally.kills} kills (${tally.during} inside the worker's job, ${tally.after} after it, ${tally.idle} before it started), ${tally.exited} runs ended first`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
