import Database from "better-sqlite3";
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

/** A small seeded generator (mulberry32): the same seed gives the same kill moments. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Starts the bundled CLI with `args`, waits until it holds a started job of one of `kinds` (the worker
 * is at work: its lease names this process), then SIGKILLs it after a random share of `workMs`. Says
 * where the kill landed, read from the store after the process is gone: a job still `running` under
 * this process's lease was cut in the middle. A process that starts no such job within `startMs` is
 * killed anyway (`idle`).
 */
export async function killWhileWorking(options: {
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
export function count(tally: KillTally, landing: KillLanding): void {
  if (landing !== "exited") tally.kills += 1;
  tally[landing] += 1;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
