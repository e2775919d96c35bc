// A simulated year of use (issue 37): a store ages by an injected clock through 365 days of remember,
// forget, edit (supersession) and jobs (each remember's revise job run and finished; a dead job every few
// days), with the retention worker swept at its interval (every 6 h). It reports, at checkpoints, the
// store's size and row counts and the maintenance worker's health score, and at the end whether any
// purged memory's text is still in the file (cairn.db and cairn.db-wal, searched byte by byte).
// `--no-retention` runs the same year with the worker off, for comparison.
// Run: npm run bench:year [-- --per-day 30 --days 365 --no-retention]

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Cairn } from "../src/cairn.js";
import { healthScore, readDiagnostics } from "../src/memory/health/diagnostics.js";
import { HOUR_MS } from "../src/util/clock.js";
import { mulberry32, SyntheticCorpus } from "./lib/syntheticCorpus.js";

const { values } = parseArgs({
  options: {
    days: { type: "string", default: "365" },
    "per-day": { type: "string", default: "30" },
    "no-retention": { type: "boolean", default: false },
  },
});
const days = Number(values.days);
const perDay = Number(values["per-day"]);
const retention = !values["no-retention"];
/** Of the memories remembered three days earlier: forgotten, and edited (superseded by a new text). */
const FORGET_SHARE = 0.15;
const EDIT_SHARE = 0.05;
/** A job that dies (its provider down) every this many days, through the queue's own failure path. */
const DEAD_EVERY_DAYS = 7;
const CHECKPOINTS = new Set([30, 90, 180, 270, days]);

const root = mkdtempSync(join(tmpdir(), "cairn-bench-year-"));
const home = join(root, "home");
const project = join(root, "project");
const env = { HOME: root, CAIRN_HOME: home, CAIRN_LLM_PROVIDER: "offline", PATH: process.env.PATH };
let now = Date.UTC(2026, 0, 1);

function openCairn(): Cairn {
  return new Cairn({ home, env, clock: () => now, importLanes: false });
}

/** A word no synthetic memory has (letters only, so the stemmer and tokenizer keep it whole). */
function marker(n: number): string {
  let word = "zq";
  for (let x = n + 1; x > 0; x = Math.floor(x / 26)) word += String.fromCharCode(97 + (x % 26));
  return `${word}xv`;
}

const megabytes = (name: string) => {
  const file = join(home, name);
  return ((existsSync(file) ? statSync(file).size : 0) / 1024 / 1024).toFixed(1);
};

function main(): Promise<void> {
  return simulate().finally(() => rmSync(root, { recursive: true, force: true }));
}

async function simulate(): Promise<void> {
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(home, "config.yaml"), `workers:\n  retention:\n    enabled: ${retention}\n`);
  const cairn = openCairn();
  const corpus = new SyntheticCorpus(37, 20_000, 8);
  const random = mulberry32(3700);
  const byDay: number[][] = [];
  const markerOf = new Map<number, string>();
  let written = 0;
  let sweepMsMax = 0;
  let sweepMsTotal = 0;
  let sweeps = 0;
  const started = Date.now();
  const rows: string[] = [];
  for (let day = 1; day <= days; day++) {
    const ids: number[] = [];
    for (let i = 0; i < perDay; i++) {
      const { content } = corpus.memory();
      const word = marker(written++);
      const [outcome] = await cairn.remember({ content: `${content} ${word}`, cwd: project, scope: "global" });
      if (outcome?.status === "created" && outcome.id !== undefined) {
        ids.push(outcome.id);
        markerOf.set(outcome.id, word);
      }
    }
    byDay.push(ids);
    await cairn.revise();
    for (const id of byDay[day - 4] ?? []) {
      const roll = random();
      if (roll < FORGET_SHARE) cairn.forgetMemory({ id });
      else if (roll < FORGET_SHARE + EDIT_SHARE) {
        const record = cairn.memories.get(id);
        if (record?.deletedAt !== null) continue;
        const word = marker(written++);
        const change = await cairn.editMemory({ id, content: `${corpus.memory().content} ${word}` });
        if (change.replacedBy !== undefined) markerOf.set(change.replacedBy, word);
      }
    }
    if (day % DEAD_EVERY_DAYS === 0) {
      cairn.storage.jobs.enqueue({ kind: "bench_provider_call", key: `day-${day}`, maxAttempts: 1 });
      for (const lease of cairn.storage.jobs.claim({ kind: "bench_provider_call", limit: 1 }))
        cairn.storage.jobs.fail(lease, "provider unreachable");
    }
    for (let quarter = 0; quarter < 4; quarter++) {
      now += 6 * HOUR_MS;
      if (!retention) continue;
      const t = performance.now();
      await (await cairn.workers()).get("retention")?.tick();
      const ms = performance.now() - t;
      sweepMsMax = Math.max(sweepMsMax, ms);
      sweepMsTotal += ms;
      sweeps++;
    }
    if (CHECKPOINTS.has(day)) rows.push(checkpoint(cairn, day));
  }
  const purged = purgedIds(cairn, markerOf);
  const leftovers = purgedTextsInFile(purged, markerOf);
  for (const id of leftovers.ids) {
    const word = markerOf.get(id)!;
    console.log(`#${id} ${word}: ${tablesHolding(cairn, word)}; ${pagesHolding(cairn, word)}`);
  }
  cairn.close();
  const closedLeftovers = purgedTextsInFile(purged, markerOf);
  console.log(
    `retention ${retention ? "on" : "off"}: ${days} days, ${perDay} memories a day, forget ${FORGET_SHARE * 100} % and edit ${EDIT_SHARE * 100} % of them 3 days later, a dead job every ${DEAD_EVERY_DAYS} days`,
  );
  console.log(
    "day | cairn.db MB | -wal MB | live | forgotten | replaced | history | embeddings | jobs done/dead | health (queue/index/vectors/storage)",
  );
  for (const row of rows) console.log(row);
  if (retention) {
    console.log(
      `sweeps: ${sweeps}, mean ${(sweepMsTotal / Math.max(1, sweeps)).toFixed(1)} ms, longest ${sweepMsMax.toFixed(0)} ms`,
    );
  }
  console.log(
    `purged memories whose text is still in the file: ${leftovers.found} of ${leftovers.purged} (store open), ${closedLeftovers.found} (closed)`,
  );
  console.log(`wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function checkpoint(cairn: Cairn, day: number): string {
  const { db } = cairn.storage;
  const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const live = n("SELECT count(*) AS n FROM memories WHERE deleted_at IS NULL");
  const forgotten = n("SELECT count(*) AS n FROM memories WHERE deleted_at IS NOT NULL AND superseded_by IS NULL");
  const replaced = n("SELECT count(*) AS n FROM memories WHERE superseded_by IS NOT NULL");
  const history = n("SELECT count(*) AS n FROM memory_history");
  const embeddings = n("SELECT count(*) AS n FROM embeddings");
  const done = n("SELECT count(*) AS n FROM jobs WHERE status IN ('succeeded', 'succeeded_no_output')");
  const dead = n("SELECT count(*) AS n FROM jobs WHERE status = 'dead'");
  let model: string | null = null;
  try {
    model = cairn.embedder.model;
  } catch {
    // No provider: the vector part is left out, as the maintenance worker does.
  }
  const health = healthScore(readDiagnostics(cairn.storage, model));
  const parts = Object.values(health.parts)
    .map((part) => part.toFixed(2))
    .join("/");
  return `${day} | ${megabytes("cairn.db")} | ${megabytes("cairn.db-wal")} | ${live} | ${forgotten} | ${replaced} | ${history} | ${embeddings} | ${done}/${dead} | ${health.score.toFixed(3)} (${parts})`;
}

/** The remembered memories whose row is gone (purged by retention). */
function purgedIds(cairn: Cairn, markers: Map<number, string>): number[] {
  const present = new Set(
    (cairn.storage.db.prepare("SELECT id FROM memories").all() as Array<{ id: number }>).map((r) => r.id),
  );
  return [...markers.keys()].filter((id) => !present.has(id));
}

/** How many purged memories still have their marker word in cairn.db or its log (every marker in the bytes, read once). */
function purgedTextsInFile(
  purged: number[],
  markers: Map<number, string>,
): { purged: number; found: number; ids: number[] } {
  const inFile = new Set<string>();
  for (const name of ["cairn.db", "cairn.db-wal"]) {
    const file = join(home, name);
    if (!existsSync(file)) continue;
    for (const match of readFileSync(file)
      .toString("latin1")
      .matchAll(/zq[a-z]+xv/g))
      inFile.add(match[0]);
  }
  const ids = purged.filter((id) => inFile.has(markers.get(id)!));
  return { purged: purged.length, found: ids.length, ids };
}

/** The pages of cairn.db (and frames of the log) whose bytes hold a word, with the b-tree each page belongs to. */
function pagesHolding(cairn: Cairn, word: string): string {
  const { db } = cairn.storage;
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const owner = db.prepare("SELECT name, pagetype FROM dbstat WHERE pageno = ?");
  const out: string[] = [];
  const file = readFileSync(join(home, "cairn.db"));
  for (let at = file.indexOf(word); at >= 0; at = file.indexOf(word, at + 1)) {
    const page = Math.floor(at / pageSize) + 1;
    const row = owner.get(page) as { name: string; pagetype: string } | undefined;
    out.push(`cairn.db page ${page} (${row ? `${row.name} ${row.pagetype}` : "free list"}, byte ${at % pageSize})`);
  }
  const wal = join(home, "cairn.db-wal");
  if (existsSync(wal)) {
    const log = readFileSync(wal);
    for (let at = log.indexOf(word); at >= 0; at = log.indexOf(word, at + 1)) {
      const frame = Math.floor((at - 32) / (pageSize + 24));
      const page = log.readUInt32BE(32 + frame * (pageSize + 24));
      out.push(`log frame ${frame} of page ${page}`);
    }
  }
  return out.join(", ");
}

/** Where a word stands in the store: "table.column" of every table that holds it (a leftover's address). */
function tablesHolding(cairn: Cairn, word: string): string {
  const { db } = cairn.storage;
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
    .all() as Array<{ name: string }>;
  const found: string[] = [];
  for (const { name } of tables) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info('${name}')`).all() as Array<{ name: string }>;
    for (const column of columns) {
      const sql = `SELECT count(*) AS n FROM "${name}" WHERE instr(CAST("${column.name}" AS BLOB), CAST(? AS BLOB)) > 0`;
      const { n } = db.prepare(sql).get(word) as { n: number };
      if (n > 0) found.push(`${name}.${column.name} (${n})`);
    }
  }
  return found.length > 0 ? found.join(", ") : "no table: a free page or a log frame";
}

await main();
