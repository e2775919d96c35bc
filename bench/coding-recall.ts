/**
 * Coding-memory recall: the hand-written coding-agent set (../shared/bench/coding-recall) loaded
 * into a temporary store through the library's `remember` (each memory's scope, type and occurredAt,
 * in chronological order as sessions would have produced them), every query recalled from a folder
 * that resolves to its project (the project's memory plus global, as an agent working there gets),
 * next to plain SQLite FTS5 BM25 over the same corpus with the same scope filter.
 *
 *   npm run bench:coding [-- --json] [--set recall.key=value ...] [--sessions N] [--failures N] [--data DIR]
 *
 * `--sessions N` gives each memory a session position, as facts a model extracted from one session
 * carry: every N memories of a project in date order are one session, at positions 1..N. The corpus
 * has no sessions of its own; this shows what indexing a fact with its neighbours' text does when the
 * neighbours are other facts of the same session.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Cairn, openCairn } from "../src/cairn.js";
import type { Provenance } from "../src/memory/types.js";
import { projectIdentity } from "../src/project/projectKey.js";
import {
  type CodingMemory,
  type CodingQuery,
  type CodingRecallSet,
  codingCategories,
  loadCodingRecall,
} from "./lib/codingRecallData.js";
import {
  CONFIDENT_SCORE,
  type CodingSummary,
  type RankedHit,
  scoreCodingQuery,
  summarizeCoding,
} from "./lib/codingRecallMetrics.js";
import { PlainBm25 } from "./lib/plainBm25.js";

/** cairn has no "pitfall" type; its extractor writes failures and their fixes as facts. */
const TYPES: Record<string, string> = {
  preference: "preference",
  decision: "decision",
  procedural: "procedural",
  fact: "fact",
  pitfall: "fact",
};
const K = 10;
const DEFAULT_DATA = join(import.meta.dirname, "..", "..", "shared", "bench", "coding-recall");

interface Report {
  queries: number;
  memories: number;
  notStored: number;
  /** Older memories of the corpus that a later one superseded at remember (the lifecycle's detectors). */
  superseded: number;
  /** Review flags raised at remember ("may be out of date": a person decides). */
  flagged: number;
  settings: string[];
  /** Memories per simulated session (0: none has a session position). */
  sessions: number;
  cairn: Record<string, CodingSummary>;
  bm25: Record<string, CodingSummary>;
  recallP50Ms: number;
  /** Queries with a memory of another project (not the query's, not global) in their top 5. */
  foreignInTop5: { cairn: number; bm25: number };
}

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: "string" },
      json: { type: "boolean", default: false },
      set: { type: "string", multiple: true, default: [] },
      failures: { type: "string", default: "0" },
      sessions: { type: "string", default: "0" },
    },
  });
  const dir = resolve(values.data ?? DEFAULT_DATA);
  const set = loadCodingRecall(dir);
  if (!set) {
    console.log(`bench:coding skipped: no coding-recall set at ${dir} (pass --data DIR)`);
    return;
  }
  const settings = Object.fromEntries(
    values.set.map((kv) => {
      const eq = kv.indexOf("=");
      if (eq < 1) throw new Error(`--set needs key=value (got ${kv})`);
      return [kv.slice(0, eq), parseValue(kv.slice(eq + 1))];
    }),
  );
  const sessions = Number(values.sessions);
  if (!Number.isInteger(sessions) || sessions < 0)
    throw new Error(`--sessions needs a whole number (got ${values.sessions})`);
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), "cairn-bench-coding-")));
  try {
    const { report, ranked } = await evaluate(set, { tmp, settings, setArgs: values.set, sessions });
    if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else printReport(report);
    const failures = Number(values.failures);
    if (failures > 0) printFailures(set, ranked, failures);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A folder per project scope whose identity is that scope (a git remote, or the folder itself). */
function checkouts(root: string, scopes: Iterable<string>): Map<string, { dir: string; key: string }> {
  const dirs = new Map<string, { dir: string; key: string }>();
  for (const scope of scopes) {
    if (scope === "global" || dirs.has(scope)) continue;
    let dir: string;
    if (scope.startsWith("git:")) {
      const remote = scope.slice(4);
      dir = join(root, "checkouts", remote.replace(/[^A-Za-z0-9.-]+/g, "_"));
      mkdirSync(join(dir, ".git"), { recursive: true });
      writeFileSync(join(dir, ".git", "config"), `[remote "origin"]\n\turl = https://${remote}.git\n`);
    } else if (scope.startsWith("path:")) {
      dir = join(root, "paths", scope.slice(5).replace(/^\/+/, ""));
      mkdirSync(dir, { recursive: true });
    } else throw new Error(`unknown scope form: ${scope}`);
    const key = projectIdentity(dir).key;
    if (scope.startsWith("git:") && key !== scope) throw new Error(`${dir} resolves to ${key}, expected ${scope}`);
    dirs.set(scope, { dir, key });
  }
  return dirs;
}

const chronological = (corpus: CodingMemory[]) =>
  corpus
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.occurredAt.localeCompare(b.m.occurredAt) || a.i - b.i)
    .map((x) => x.m);

/** Each memory's session position with `size` memories of a scope (in date order) per session; none at 0. */
function sessionPositions(memories: CodingMemory[], size: number): Map<string, Provenance> {
  const positions = new Map<string, Provenance>();
  if (size === 0) return positions;
  const seen = new Map<string, number>();
  for (const m of memories) {
    const n = seen.get(m.scope) ?? 0;
    seen.set(m.scope, n + 1);
    const itemFrom = (n % size) + 1;
    positions.set(m.id, { sessionId: `${m.scope}#${Math.floor(n / size)}`, itemFrom, itemTo: itemFrom });
  }
  return positions;
}

async function evaluate(
  set: CodingRecallSet,
  options: { tmp: string; settings: Record<string, unknown>; setArgs: string[]; sessions: number },
): Promise<{ report: Report; ranked: Map<string, { cairn: RankedHit[]; bm25: RankedHit[] }> }> {
  const { corpus, queries } = set;
  const home = join(options.tmp, "cairn");
  const userHome = join(options.tmp, "home");
  mkdirSync(home);
  mkdirSync(userHome);
  const dirs = checkouts(options.tmp, [...corpus.map((m) => m.scope), ...queries.map((q) => q.scope)]);
  const keyOf = (scope: string) => (scope === "global" ? "global" : dirs.get(scope)!.key);
  // A clean environment: no provider key or CAIRN_* setting of the caller reaches the run.
  const env = { PATH: process.env.PATH ?? "", HOME: userHome, CAIRN_HOME: home, CAIRN_LLM_PROVIDER: "offline" };
  const cairn: Cairn = openCairn({ home, env, config: options.settings, importLanes: false });
  try {
    const ordered = chronological(corpus);
    const positions = sessionPositions(ordered, options.sessions);
    const outcomes = await cairn.remember(
      ordered.map((m) => ({
        content: m.content,
        ...(positions.has(m.id) ? { provenance: positions.get(m.id) } : {}),
        scope: keyOf(m.scope),
        ref: m.id,
        type: (TYPES[m.type] ?? "fact") as "fact",
        occurredAt: m.occurredAt,
      })),
    );
    const notStored = outcomes.filter((o) => o.status !== "created").length;
    const superseded = outcomes.reduce((sum, o) => sum + (o.superseded?.length ?? 0), 0);
    const flagged = outcomes.reduce((sum, o) => sum + (o.flagged?.length ?? 0), 0);

    const bm25 = new PlainBm25();
    bm25.add(corpus.map((m) => ({ scope: m.scope, ref: m.id, body: m.content })));
    const ranked = new Map<string, { cairn: RankedHit[]; bm25: RankedHit[] }>();
    const latencies: number[] = [];
    for (const q of queries) {
      const project = dirs.get(q.scope);
      const started = performance.now();
      const response = await cairn.recall({
        query: q.query,
        k: K,
        ...(project ? { cwd: project.dir } : { scope: "global", cwd: options.tmp }),
      });
      latencies.push(performance.now() - started);
      ranked.set(q.id, {
        cairn: response.results.map((r) => ({ ref: r.ref ?? "", score: r.score })),
        bm25: bm25.searchScored(q.scope === "global" ? ["global"] : [q.scope, "global"], q.query, K),
      });
    }
    bm25.close();
    const summary = (pick: "cairn" | "bm25") =>
      summarizeCoding(queries.map((q) => scoreCodingQuery(q, ranked.get(q.id)![pick])));
    latencies.sort((a, b) => a - b);
    const scopeOf = new Map(corpus.map((m) => [m.id, m.scope]));
    const foreign = (pick: "cairn" | "bm25") =>
      queries.filter((q) =>
        ranked
          .get(q.id)!
          [pick].slice(0, 5)
          .some((h) => ![q.scope, "global"].includes(scopeOf.get(h.ref) ?? "")),
      ).length;
    return {
      report: {
        queries: queries.length,
        memories: corpus.length,
        notStored,
        superseded,
        flagged,
        settings: options.setArgs,
        sessions: options.sessions,
        cairn: summary("cairn"),
        bm25: summary("bm25"),
        recallP50Ms: Math.round((latencies[Math.floor(latencies.length / 2)] ?? 0) * 10) / 10,
        foreignInTop5: { cairn: foreign("cairn"), bm25: foreign("bm25") },
      },
      ranked,
    };
  } finally {
    cairn.close();
  }
}

function printReport(report: Report): void {
  const f = (x: number | undefined) => (x === undefined ? "    -" : x.toFixed(3));
  console.log(
    `coding recall: ${report.queries} queries over ${report.memories} memories` +
      ` (${report.notStored} not stored as new: deduplicated or replaced at remember;` +
      ` ${report.superseded} older ones superseded by a later one, ${report.flagged} review flags)` +
      (report.settings.length ? `; settings ${report.settings.join(" ")}` : "") +
      (report.sessions ? `; ${report.sessions} memories per session` : ""),
  );
  console.log(`\n${"category".padEnd(11)} ${"n".padStart(3)}  | cairn R@1   R@5   MRR   | BM25  R@1   R@5   MRR`);
  console.log("-".repeat(68));
  for (const name of [...codingCategories.filter((c) => c !== "none"), "overall"]) {
    const a = report.cairn[name];
    const b = report.bm25[name];
    if (!a || !b) continue;
    console.log(
      `${name.padEnd(11)} ${String(a.n).padStart(3)}  |       ${f(a.r1)} ${f(a.r5)} ${f(a.mrr)} |       ${f(b.r1)} ${f(b.r5)} ${f(b.mrr)}`,
    );
  }
  console.log("-".repeat(68));
  const u = report.cairn.update;
  const bu = report.bm25.update;
  if (u && bu) {
    console.log(
      `update: newer above older  cairn ${f(u.newerAboveOlder)}  BM25 ${f(bu.newerAboveOlder)};` +
        ` newer at rank 1  cairn ${f(u.newerFirst)}  BM25 ${f(bu.newerFirst)}`,
    );
  }
  const none = report.cairn.none;
  if (none) {
    console.log(
      `none (n=${none.n}): a result scored >= ${CONFIDENT_SCORE} (a confident wrong answer) cairn ${f(none.confident)};` +
        ` returned nothing cairn ${f(none.empty)}, BM25 ${f(report.bm25.none?.empty)} (BM25 scores are not calibrated)`,
    );
  }
  console.log(
    `queries with another project's memory in the top 5: cairn ${report.foreignInTop5.cairn}, BM25 ${report.foreignInTop5.bm25}`,
  );
  console.log(`cairn recall p50 ${report.recallP50Ms} ms`);
}

function printFailures(
  set: CodingRecallSet,
  ranked: Map<string, { cairn: RankedHit[]; bm25: RankedHit[] }>,
  n: number,
): void {
  const byId = new Map(set.corpus.map((m) => [m.id, m]));
  const failed = set.queries.filter((q: CodingQuery) => {
    const s = scoreCodingQuery(q, ranked.get(q.id)!.cairn);
    return q.category === "none" ? s.confident : s.r1 !== 1 || s.newerAboveOlder === false;
  });
  console.log(`\n${failed.length} queries with the gold not first (or a confident none-answer); the first ${n}:`);
  for (const q of failed.slice(0, n)) {
    console.log(`\n${q.id} [${q.category}] ${q.query}`);
    for (const id of [...q.gold, ...(q.stale ?? [])]) {
      const rank = ranked.get(q.id)!.cairn.findIndex((h) => h.ref === id) + 1 || "-";
      console.log(`  ${q.gold.includes(id) ? "gold" : "stale"} ${id} (rank ${rank}): ${byId.get(id)?.content}`);
    }
    for (const [i, h] of ranked.get(q.id)!.cairn.slice(0, 3).entries()) {
      console.log(`  #${i + 1} ${h.score.toFixed(3)} ${h.ref}: ${byId.get(h.ref)?.content.slice(0, 140)}`);
    }
  }
}

await run();
