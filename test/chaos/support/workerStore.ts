import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import { type Exit, runBundled, spawnCli } from "./cliBundle.js";

export const DAY = 86_400_000;

/** One memory line of a `cairn export` file, as `cairn import` reads it. */
export interface ExportLine {
  id: number;
  content: string;
  state?: "live" | "forgotten" | "superseded";
  deletedAt?: number | null;
  supersededBy?: number | null;
  supersededAt?: number | null;
  history?: Array<{ event: string; at: number }>;
}

/** Writes `lines` as a cairn export file and imports it with the CLI (global scope); content -> store id. */
export async function importMemories(
  main: string,
  env: NodeJS.ProcessEnv,
  dir: string,
  lines: ExportLine[],
  database: string,
): Promise<Map<string, number>> {
  const now = Date.now();
  const header = {
    format: "cairn-memories",
    version: 1,
    exportedAt: new Date(now).toISOString(),
    scopes: ["global"],
    withGone: true,
    count: lines.length,
  };
  const body = lines.map((line) =>
    JSON.stringify({
      id: line.id,
      content: line.content,
      type: "fact",
      scope: "global",
      project: null,
      ref: null,
      confidence: 1,
      importance: 0.5,
      occurredAt: null,
      createdAt: now - 300 * DAY,
      updatedAt: now - 300 * DAY,
      who: "user",
      why: null,
      provenance: {},
      state: line.state ?? "live",
      supersededBy: line.supersededBy ?? null,
      supersededAt: line.supersededAt ?? null,
      deletedAt: line.deletedAt ?? null,
      history: (line.history ?? []).map((event) => ({
        event: event.event,
        oldContent: null,
        newContent: event.event === "created" ? line.content : null,
        who: "user",
        reason: null,
        metadata: null,
        at: event.at,
      })),
    }),
  );
  const file = join(dir, "seed.jsonl");
  writeFileSync(file, `${[JSON.stringify(header), ...body].join("\n")}\n`);
  const done = await runBundled(main, ["import", file], env, 120_000);
  expect(done.code, done.stderr).toBe(0);
  return withStore(database, (db) => {
    const rows = db.prepare("SELECT id, content FROM memories").all() as Array<{ id: number; content: string }>;
    return new Map(rows.map((row) => [row.content, row.id]));
  });
}

/** Runs `fn` on the store at `path` (read-write, plain SQL: no cairn code), then closes it. */
export function withStore<T>(path: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/**
 * Starts `cairn serve`, waits until `done` reads true from the store (the work finished), then stops it
 * with SIGTERM, as a user would; the daemon must exit cleanly.
 */
export async function serveUntil(
  main: string,
  env: NodeJS.ProcessEnv,
  database: string,
  done: (db: Database.Database) => boolean,
  timeoutMs = 60_000,
): Promise<Exit> {
  const spawned = spawnCli(main, ["serve", "--port", "0"], env);
  // Stopped only once it is up (its signal handlers in place), however early the work is found done.
  let up = false;
  spawned.child.stderr?.on("data", (chunk: Buffer) => {
    if (chunk.toString("utf8").includes("listening on")) up = true;
  });
  const deadline = Date.now() + timeoutMs;
  const db = new Database(database, { readonly: true });
  try {
    let finished = false;
    while (!(finished && up) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      finished = done(db);
    }
    spawned.child.kill("SIGTERM");
    const exit = await spawned.exited;
    expect(finished, `cairn serve did not finish the work in ${timeoutMs} ms: ${exit.stderr}`).toBe(true);
    return exit;
  } finally {
    db.close();
  }
}

/** The job rows of `kinds`, by status. */
export function jobStatuses(db: Database.Database, kinds: string[]): Record<string, number> {
  const rows = db
    .prepare("SELECT status, count(*) AS n FROM jobs WHERE kind IN (SELECT value FROM json_each(?)) GROUP BY status")
    .all(JSON.stringify(kinds)) as Array<{ status: string; n: number }>;
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** A periodic job of `kind` finished in the current period (succeeded and not reopened since). */
export function periodDone(db: Database.Database, kind: string): boolean {
  const rows = db.prepare("SELECT status FROM jobs WHERE kind = ?").all(kind) as Array<{ status: string }>;
  return rows.length > 0 && rows.every((row) => row.status === "succeeded" || row.status === "succeeded_no_output");
}

export interface CleanStore {
  integrity: string;
  /** Jobs still running once every process is gone (a lease nobody will give back). */
  running: string[];
  dead: string[];
  health: number;
  /** The score's parts: queue, index, vectors, storage. */
  parts: Record<string, number>;
  recommendations: string[];
  /** The score's parts and the diagnostics they come from, to say why health is not 1. */
  detail: string;
}

/**
 * What every worker's store must be after the kills and a clean finish: SQLite's integrity check,
 * no job left running, the dead jobs, and the maintenance worker's diagnostics as `cairn doctor --json`
 * reads them (its health score and what it would repair).
 */
export async function cleanStore(main: string, env: NodeJS.ProcessEnv, database: string): Promise<CleanStore> {
  const facts = withStore(database, (db) => ({
    integrity: String(db.pragma("integrity_check", { simple: true })),
    running: (
      db.prepare("SELECT kind || ' ' || key AS job FROM jobs WHERE status = 'running'").all() as Array<{
        job: string;
      }>
    ).map((row) => row.job),
    dead: (
      db.prepare("SELECT kind || ' ' || key AS job FROM jobs WHERE status = 'dead'").all() as Array<{ job: string }>
    ).map((row) => row.job),
  }));
  const doctor = await runBundled(main, ["doctor", "--json"], env, 60_000);
  const report = JSON.parse(doctor.stdout) as {
    health: {
      health: { score: number; parts: Record<string, number> };
      diagnostics: unknown;
      recommendations: Array<{ action: string; reason: string }>;
    };
  };
  return {
    ...facts,
    health: report.health.health.score,
    parts: report.health.health.parts,
    recommendations: report.health.recommendations.map((r) => `${r.action}: ${r.reason}`),
    detail: JSON.stringify({ parts: report.health.health.parts, diagnostics: report.health.diagnostics }),
  };
}

/** The stored stats of one worker (`cairn status --json`). */
export async function workerStats(
  main: string,
  env: NodeJS.ProcessEnv,
  name: string,
): Promise<{ processed: number; failed: number; running: boolean }> {
  const status = await runBundled(main, ["status", "--json"], env, 60_000);
  expect(status.code, status.stderr).toBe(0);
  const parsed = JSON.parse(status.stdout) as {
    workers: Record<string, { processed: number; failed: number; running: boolean }>;
  };
  const stats = parsed.workers[name];
  if (!stats) throw new Error(`no stats for the ${name} worker in cairn status --json`);
  return stats;
}
