import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mulberry32 } from "../../bench/lib/syntheticCorpus.js";
import { chunkText } from "../../src/memory/documents/chunkText.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { bundleCli, runBundled } from "./support/cliBundle.js";
import { completion, schemaName, userPrompt } from "./support/fakeProvider.js";
import { type ChaosHome, chaosEnv, makeChaosHome } from "./support/home.js";
import { describeTally, killRounds } from "./support/killWhileWorking.js";
import {
  cleanStore,
  DAY,
  type ExportLine,
  importMemories,
  jobStatuses,
  periodDone,
  serveUntil,
  withStore,
  workerStats,
} from "./support/workerStore.js";

// Seed 004's background workers under SIGKILL: for each worker a store where it has real work, the
// daemon (or the command that runs the worker) killed at seeded random moments while the worker holds
// its job, restarted, and once the work is finished: nothing lost, nothing done twice, a sound store
// with health 1. Kill moments are drawn after the worker's job is seen running under the process's
// lease, so they land inside the work, not in startup.

const SEED = Number(process.env.CAIRN_CHAOS_SEED ?? 3737);
/** Worker configs shared by the scenarios: only the worker under test does anything. */
const QUIET = {
  retention: { enabled: false },
  maintenance: { enabled: false },
  continuity: { enabled: false },
};

let main: string;
beforeAll(() => {
  main = bundleCli();
});

describe("retention worker under SIGKILL", () => {
  let home: ChaosHome;
  const LIVE = 300;
  const EXPIRED = 2000;
  const YOUNG = 100;
  const REPLACED = 100;
  /** Kills that must land inside a sweep; rounds at most. */
  const INSIDE = 4;
  const ROUNDS = 24;

  beforeAll(() => {
    home = makeChaosHome("workers-retention");
    home.writeConfig({
      memories: { enabled: false },
      workers: { ...QUIET, retention: { enabled: true, intervalMs: 60_000, batchSize: 250 } },
    });
  });

  it("purges exactly what expired, across several sweeps, whatever the kills", async () => {
    const env = chaosEnv(home);
    const database = join(home.home, "cairn.db");
    const now = Date.now();
    const started = Date.now();
    const lines: ExportLine[] = [];
    let id = 0;
    const live = (i: number) => `live note ${i}: the relay service listens on port ${7000 + i}`;
    const expired = (i: number) => `forgotten note ${i}: the old queue kept batch size ${100 + i}`;
    const young = (i: number) => `recently forgotten note ${i}: the cache kept ttl ${10 + i}`;
    const replaced = (i: number) => `replaced note ${i}: the relay service once listened on port ${9000 + i}`;
    for (let i = 0; i < LIVE; i++)
      lines.push({
        id: ++id,
        content: live(i),
        history: [
          { event: "created", at: now - 250 * DAY },
          { event: "confirmed", at: now - 10 * DAY },
        ],
      });
    for (let i = 0; i < EXPIRED; i++)
      lines.push({
        id: ++id,
        content: expired(i),
        state: "forgotten",
        deletedAt: now - 60 * DAY,
        history: [{ event: "deleted", at: now - 60 * DAY }],
      });
    for (let i = 0; i < YOUNG; i++)
      lines.push({ id: ++id, content: young(i), state: "forgotten", deletedAt: now - 5 * DAY });
    for (let i = 0; i < REPLACED; i++)
      lines.push({
        id: ++id,
        content: replaced(i),
        state: "superseded",
        supersededBy: 1 + i,
        supersededAt: now - 200 * DAY,
        deletedAt: now - 200 * DAY,
      });
    const ids = await importMemories(main, env, home.root, lines, database);
    const idsOf = (make: (i: number) => string, n: number) =>
      Array.from({ length: n }, (_, i) => {
        const found = ids.get(make(i));
        if (found === undefined) throw new Error(`not imported: ${make(i)}`);
        return found;
      });
    const liveIds = idsOf(live, LIVE);
    const purged = [...idsOf(expired, EXPIRED), ...idsOf(replaced, REPLACED)];
    const kept = [...liveIds, ...idsOf(young, YOUNG)];

    // Hints, graph links and finished jobs beside the memories, as the pipeline leaves them.
    const snapshot = withStore(database, (db) => {
      const hint = db.prepare("INSERT INTO memory_hints (memory_id, hint, created_at) VALUES (?, ?, ?)");
      const entity = db.prepare(
        "INSERT INTO entities (name, canonical_name, mentions, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      );
      const mention = db.prepare(
        "INSERT INTO memory_entity_mentions (memory_id, entity_id, mention_text, confidence) VALUES (?, ?, ?, 0.9)",
      );
      const relation = db.prepare(
        "INSERT INTO relations (source_entity_id, target_entity_id, relation_type, confidence, created_at, updated_at) VALUES (?, ?, 'uses', 0.8, ?, ?)",
      );
      const job = db.prepare(
        `INSERT INTO jobs (kind, key, status, attempts, max_attempts, run_after, input_watermark, created_at, updated_at, finished_at)
           VALUES (?, ?, ?, 1, 5, ?, 0, ?, ?, ?)`,
      );
      db.transaction(() => {
        for (let i = 0; i < 300; i++) hint.run(purged[i], `what batch size did queue ${i} keep`, now - 70 * DAY);
        for (let i = 0; i < 100; i++) hint.run(liveIds[i], `which port does relay ${i} use`, now - 70 * DAY);
        // 50 entities only expired memories mention (deleted, with their relations) and 20 that live ones
        // mention too (kept, their counts down to the live mentions).
        const only: number[] = [];
        const shared: number[] = [];
        for (let e = 0; e < 50; e++) {
          const entityId = Number(entity.run(`Oldqueue${e}`, `oldqueue${e}`, 10, now, now).lastInsertRowid);
          for (let m = 0; m < 10; m++) mention.run(purged[e * 10 + m], entityId, `Oldqueue${e}`);
          only.push(entityId);
        }
        for (let e = 0; e < 20; e++) {
          const entityId = Number(entity.run(`Relay${e}`, `relay${e}`, 15, now, now).lastInsertRowid);
          for (let m = 0; m < 10; m++) mention.run(purged[1000 + e * 10 + m], entityId, `Relay${e}`);
          for (let m = 0; m < 5; m++) mention.run(liveIds[e * 5 + m], entityId, `Relay${e}`);
          shared.push(entityId);
        }
        for (let e = 0; e < 20; e++) relation.run(only[e], shared[e], now, now);
        for (let e = 20; e < 40; e++) relation.run(shared[e - 20], only[e], now, now);
        for (let e = 0; e < 19; e++) relation.run(shared[e], shared[e + 1], now, now);
        // Finished jobs past their windows (14 days, 30 for dead ones) and within them; pending ones stay.
        for (let i = 0; i < 1200; i++)
          job.run(
            "chaos_done",
            `old-${i}`,
            "succeeded",
            now - 20 * DAY,
            now - 21 * DAY,
            now - 20 * DAY,
            now - 20 * DAY,
          );
        for (let i = 0; i < 150; i++)
          job.run("chaos_done", `new-${i}`, "succeeded", now - 3 * DAY, now - 3 * DAY, now - 3 * DAY, now - 3 * DAY);
        for (let i = 0; i < 600; i++)
          job.run("chaos_dead", `old-${i}`, "dead", now - 40 * DAY, now - 41 * DAY, now - 40 * DAY, now - 40 * DAY);
        for (let i = 0; i < 20; i++)
          job.run("chaos_dead", `new-${i}`, "dead", now - 5 * DAY, now - 5 * DAY, now - 5 * DAY, now - 5 * DAY);
        for (let i = 0; i < 20; i++)
          job.run("chaos_pending", `p-${i}`, "pending", now + DAY, now - 100 * DAY, now - 100 * DAY, null);
      })();
      return {
        kept: keptRows(db, kept),
        keptHistory: db
          .prepare(
            "SELECT count(*) AS n FROM memory_history WHERE created_at >= ? AND memory_id IN (SELECT value FROM json_each(?))",
          )
          .get(now - 180 * DAY + DAY, JSON.stringify(kept)) as { n: number },
        embeddingsOfKept: db
          .prepare(
            "SELECT count(DISTINCT e.content_hash) AS n FROM embeddings e JOIN memories m ON m.content_hash = e.content_hash WHERE m.id IN (SELECT value FROM json_each(?))",
          )
          .get(JSON.stringify(kept)) as { n: number },
        rows: totalRows(db),
      };
    });
    const seededMs = Date.now() - started;

    // Kill the daemon while it sweeps: each restart takes over the dead holder's job and sweeps again.
    // Once this period's sweep is done the daemon has nothing due, so the later sweeps (the seed's
    // "more at the next sweep") run through `cairn doctor --retention`, the on-demand sweep on the same
    // queue, killed the same way.
    let daemon = true;
    const tally = await killRounds({
      main,
      env,
      database,
      kinds: ["retention"],
      seed: SEED,
      inside: INSIDE,
      rounds: ROUNDS,
      firstDrawMs: 120,
      startMs: 6000,
      args: (last) => {
        if (last === "idle") daemon = false;
        return daemon ? ["serve", "--port", "0"] : ["doctor", "--retention", "--json"];
      },
    });

    // Then sweep to the end, uninterrupted.
    let sweeps = 0;
    for (let more = true; more && sweeps < 12; sweeps++) {
      const sweep = await runBundled(main, ["doctor", "--retention", "--json"], env, 60_000);
      expect(sweep.code, sweep.stderr).toBe(0);
      const { report } = JSON.parse(sweep.stdout) as { report: { more: boolean; memories: number } | null };
      expect(report, sweep.stdout).not.toBeNull();
      more = report?.more ?? true;
    }
    expect(sweeps).toBeLessThan(12);

    const after = withStore(database, (db) => {
      const present = db
        .prepare("SELECT count(*) AS n FROM memories WHERE id IN (SELECT value FROM json_each(?))")
        .get(JSON.stringify(purged)) as { n: number };
      const one = (sql: string, ...params: unknown[]) => (db.prepare(sql).get(...params) as { n: number }).n;
      return {
        purgedLeft: present.n,
        memories: one("SELECT count(*) AS n FROM memories"),
        kept: keptRows(db, kept),
        ftsOrphans: one(
          "SELECT count(*) AS n FROM memories_fts WHERE rowid NOT IN (SELECT id FROM memories WHERE deleted_at IS NULL)",
        ),
        ftsMissing: one(
          "SELECT count(*) AS n FROM memories m WHERE m.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM memories_fts f WHERE f.rowid = m.id)",
        ),
        vectorOrphans: one(
          "SELECT count(*) AS n FROM memory_vec_bit384_rowids WHERE id NOT IN (SELECT id FROM memories)",
        ),
        embeddingOrphans: one(
          "SELECT count(*) AS n FROM embeddings WHERE content_hash NOT IN (SELECT content_hash FROM memories)",
        ),
        embeddingsOfKept: one(
          "SELECT count(DISTINCT e.content_hash) AS n FROM embeddings e JOIN memories m ON m.content_hash = e.content_hash WHERE m.id IN (SELECT value FROM json_each(?))",
          JSON.stringify(kept),
        ),
        hintOrphans: one("SELECT count(*) AS n FROM memory_hints WHERE memory_id NOT IN (SELECT id FROM memories)"),
        hints: one("SELECT count(*) AS n FROM memory_hints"),
        hintFtsOrphans: one(
          "SELECT count(*) AS n FROM memory_hints_fts WHERE rowid NOT IN (SELECT id FROM memory_hints)",
        ),
        mentionOrphans: one(
          "SELECT count(*) AS n FROM memory_entity_mentions WHERE memory_id NOT IN (SELECT id FROM memories) OR entity_id NOT IN (SELECT id FROM entities)",
        ),
        entities: db
          .prepare(
            "SELECT canonical_name AS name, mentions, (SELECT count(*) FROM memory_entity_mentions x WHERE x.entity_id = e.id) AS rows FROM entities e ORDER BY id",
          )
          .all() as Array<{ name: string; mentions: number; rows: number }>,
        relations: one("SELECT count(*) AS n FROM relations"),
        relationOrphans: one(
          "SELECT count(*) AS n FROM relations WHERE source_entity_id NOT IN (SELECT id FROM entities) OR target_entity_id NOT IN (SELECT id FROM entities)",
        ),
        oldHistory: one("SELECT count(*) AS n FROM memory_history WHERE created_at < ?", now - 180 * DAY),
        purgedHistory: one(
          "SELECT count(*) AS n FROM memory_history WHERE memory_id IN (SELECT value FROM json_each(?))",
          JSON.stringify(purged),
        ),
        keptHistory: one(
          "SELECT count(*) AS n FROM memory_history WHERE created_at >= ? AND memory_id IN (SELECT value FROM json_each(?))",
          now - 180 * DAY + DAY,
          JSON.stringify(kept),
        ),
        jobs: {
          done: jobStatuses(db, ["chaos_done"]),
          oldDone: one("SELECT count(*) AS n FROM jobs WHERE kind = 'chaos_done' AND key LIKE 'old-%'"),
          dead: jobStatuses(db, ["chaos_dead"]),
          oldDead: one("SELECT count(*) AS n FROM jobs WHERE kind = 'chaos_dead' AND key LIKE 'old-%'"),
          pending: jobStatuses(db, ["chaos_pending"]),
          retention: jobStatuses(db, ["retention"]),
        },
        rows: totalRows(db),
      };
    });
    const store = await cleanStore(main, env, database);
    const stats = await workerStats(main, env, "retention");
    const deleted = snapshot.rows - after.rows;
    console.log(
      `[chaos:workers:retention] seed ${SEED}; seeded in ${Math.round(seededMs / 1000)} s; ${describeTally(tally)}; then ${sweeps} sweeps to the end; ` +
        `${purged.length} expired memories: ${after.purgedLeft} left; ${kept.length} kept: ${after.kept === snapshot.kept ? "untouched" : "CHANGED"}; ` +
        `${deleted} rows deleted in all, the worker's stats count ${stats.processed}; integrity ${store.integrity}; health ${store.health}; ` +
        `${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect(tally.during).toBe(INSIDE);
    expect(after.purgedLeft).toBe(0);
    expect(after.memories).toBe(kept.length);
    expect(after.kept).toBe(snapshot.kept);
    expect(after.ftsOrphans).toBe(0);
    expect(after.ftsMissing).toBe(0);
    expect(after.vectorOrphans).toBe(0);
    expect(after.embeddingOrphans).toBe(0);
    expect(after.embeddingsOfKept).toBe(snapshot.embeddingsOfKept.n);
    expect(after.hintOrphans).toBe(0);
    expect(after.hints).toBe(100);
    expect(after.hintFtsOrphans).toBe(0);
    expect(after.mentionOrphans).toBe(0);
    expect(after.entities).toEqual(Array.from({ length: 20 }, (_, e) => ({ name: `relay${e}`, mentions: 5, rows: 5 })));
    expect(after.relations).toBe(19);
    expect(after.relationOrphans).toBe(0);
    expect(after.oldHistory).toBe(0);
    expect(after.purgedHistory).toBe(0);
    expect(after.keptHistory).toBe(snapshot.keptHistory.n);
    expect(after.jobs.oldDone).toBe(0);
    expect(after.jobs.done).toEqual({ succeeded: 150 });
    expect(after.jobs.oldDead).toBe(0);
    expect(after.jobs.dead).toEqual({ dead: 20 });
    expect(after.jobs.pending).toEqual({ pending: 20 });
    expect(after.jobs.retention).toEqual({ succeeded: 1 });
    // A killed sweep is not counted; a finished one counts what it purged: never more than went.
    expect(stats.processed).toBeGreaterThan(0);
    expect(stats.processed).toBeLessThanOrEqual(deleted);
    expect(stats.failed).toBe(0);
    expect(store.integrity).toBe("ok");
    expect(store.running).toEqual([]);
    expect(store.dead.filter((job) => !job.startsWith("chaos_dead new-"))).toEqual([]);
    // Health 1 but for the queue's share of dead jobs: the 20 dead jobs inside their window, which
    // retention keeps on purpose (below the maintenance worker's 1 % threshold, nothing to repair).
    expect(store.recommendations).toEqual([]);
    expect(store.parts, store.detail).toEqual({ queue: store.parts.queue, index: 1, vectors: 1, storage: 1 });
    expect(JSON.parse(store.detail).diagnostics.queue).toMatchObject({ dead: 20, staleLeases: 0 });
  });
});

describe("maintenance worker (execute mode) under SIGKILL", () => {
  let home: ChaosHome;
  const MEMORIES = 3000;
  /** Kills inside the period's one health cycle, below queue.maxAttempts (5) so the job is not dead. */
  const INSIDE = 4;
  const ROUNDS = 10;

  beforeAll(() => {
    home = makeChaosHome("workers-maintenance");
    home.writeConfig({
      memories: { enabled: false },
      workers: {
        ...QUIET,
        maintenance: { enabled: true, mode: "execute", intervalMs: 60_000, cooldownMs: 5000 },
        documents: { intervalMs: 1000 },
      },
    });
  });

  it("repairs a damaged index, missing vectors, dead jobs and stale leases once, and ends at health 1", async () => {
    const env = chaosEnv(home);
    const database = join(home.home, "cairn.db");
    const started = Date.now();
    const lines: ExportLine[] = Array.from({ length: MEMORIES }, (_, i) => ({
      id: i + 1,
      content: `service ${i} reads its settings from config/service-${i}.yaml at start`,
    }));
    const ids = [...(await importMemories(main, env, home.root, lines, database)).values()].sort((a, b) => a - b);
    const now = Date.now();
    withStore(database, (db) => {
      db.transaction(() => {
        // The search index lost 2,000 rows (what one repair mends); 1,500 memories lost their vectors and
        // cached embeddings (the worker's re-embed joins the daemon's vector loop to write them again).
        const lostIndex = JSON.stringify(ids.slice(0, 2000));
        db.prepare("DELETE FROM memories_fts WHERE rowid IN (SELECT value FROM json_each(?))").run(lostIndex);
        const lostVectors = JSON.stringify(ids.slice(1500, 3000));
        db.prepare(
          "DELETE FROM embeddings WHERE content_hash IN (SELECT content_hash FROM memories WHERE id IN (SELECT value FROM json_each(?)))",
        ).run(lostVectors);
        db.prepare("UPDATE memories SET embedding_model = NULL WHERE id IN (SELECT value FROM json_each(?))").run(
          lostVectors,
        );
        // 60 dead jobs of a kind no worker runs (requeued, they wait as pending), and 3 ingest jobs of
        // documents that are gone, held by a process of another host whose lease ran out: released,
        // the documents worker finishes them (nothing to ingest).
        const dead = db.prepare(
          `INSERT INTO jobs (kind, key, status, attempts, max_attempts, run_after, input_watermark, created_at, updated_at, finished_at)
             VALUES ('chaos_orphan', ?, 'dead', 5, 5, ?, 0, ?, ?, ?)`,
        );
        for (let i = 0; i < 60; i++) dead.run(`${i}`, now - DAY, now - DAY, now - DAY, now - DAY);
        const job = db.prepare(
          `INSERT INTO jobs (kind, key, status, attempts, max_attempts, run_after, input_watermark, lease_owner, lease_expires_at,
             created_at, updated_at, finished_at, started_at) VALUES ('document_ingest', ?, ?, ?, 5, ?, 0, ?, ?, ?, ?, ?, ?)`,
        );
        for (let i = 0; i < 3; i++)
          job.run(
            `${91_000 + i}`,
            "running",
            1,
            now - DAY,
            "4242@elsewhere.invalid/0",
            now - 60_000,
            now - DAY,
            now - DAY,
            null,
            now - DAY,
          );
      })();
    });
    const before = await cleanStore(main, env, database);
    expect(before.health).toBeLessThan(0.8);
    expect(before.recommendations.map((r) => r.split(":")[0]).sort()).toEqual([
      "rebuildFts",
      "reembed",
      "releaseStaleLeases",
      "requeueDeadJobs",
    ]);
    const seededMs = Date.now() - started;

    // The daemon runs a health cycle at start; each restart takes the killed holder's job over and runs
    // the cycle again. Once a cycle finished, the period's job is done and the daemon has none due.
    const tally = await killRounds({
      main,
      env,
      database,
      kinds: ["health"],
      seed: SEED + 1,
      inside: INSIDE,
      rounds: ROUNDS,
      firstDrawMs: 60,
      startMs: 4000,
      args: () => ["serve", "--port", "0"],
      stop: (landing) => landing === "idle" || landing === "after",
    });
    // A clean daemon finishes the cycle (if no kill let one end) and the requeued jobs.
    const clean = await serveUntil(main, env, database, (db) => {
      const ingest = jobStatuses(db, ["document_ingest"]);
      return periodDone(db, "health") && ingest.succeeded === 3;
    });
    expect(clean.code, clean.stderr).toBe(0);

    const store = await cleanStore(main, env, database);
    const stats = await workerStats(main, env, "maintenance");
    const ledger = withStore(database, (db) => {
      const row = db.prepare("SELECT value FROM meta WHERE key = 'maintenance.ledger'").get() as { value: string };
      return JSON.parse(row.value) as { runs: Record<string, number[]>; halted: Record<string, number> };
    });
    const index = withStore(database, (db) => ({
      fts: (db.prepare("SELECT count(*) AS n FROM memories_fts").get() as { n: number }).n,
      ingest: jobStatuses(db, ["document_ingest"]),
      orphans: jobStatuses(db, ["chaos_orphan"]),
      attempts: (
        db.prepare("SELECT max(attempts) AS n FROM jobs WHERE kind = 'document_ingest'").get() as { n: number }
      ).n,
    }));
    // Each period's job succeeds once and runs each repair at most once; a killed cycle records nothing.
    const periods = Math.floor(Date.now() / 60_000) - Math.floor(started / 60_000) + 1;
    const runs = Object.fromEntries(Object.entries(ledger.runs).map(([action, at]) => [action, at.length]));
    console.log(
      `[chaos:workers:maintenance] seed ${SEED + 1}; seeded in ${Math.round(seededMs / 1000)} s; health ${before.health} before; ${describeTally(tally)}; ` +
        `repairs recorded ${JSON.stringify(runs)} over ${periods} periods; stats processed ${stats.processed}; integrity ${store.integrity}; health ${store.health}; ` +
        `${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect(store.health, store.detail).toBe(1);
    // The first cycle is the long one (2,000 index rows, 1,500 vectors); a restart finds less to mend,
    // so how many later kills still land inside depends on the machine's speed: at least the first does.
    expect(tally.during).toBeGreaterThanOrEqual(1);
    expect(store.integrity).toBe("ok");
    expect(store.recommendations).toEqual([]);
    expect(store.health, store.detail).toBe(1);
    expect(store.running).toEqual([]);
    expect(store.dead).toEqual([]);
    expect(index.fts).toBe(MEMORIES);
    expect(index.ingest).toEqual({ succeeded: 3 });
    expect(index.orphans).toEqual({ pending: 60 });
    expect(ledger.halted).toEqual({});
    for (const count of Object.values(runs)) expect(count).toBeLessThanOrEqual(periods);
    expect(stats.processed).toBeLessThanOrEqual(4 * periods);
    expect(stats.failed).toBe(0);
  });
});

describe("documents worker under SIGKILL", () => {
  let home: ChaosHome;
  const DOCUMENTS = 40;
  const CHUNK = { size: 400, overlap: 60 };
  const INSIDE = 5;
  const ROUNDS = 20;

  beforeAll(() => {
    home = makeChaosHome("workers-documents");
    home.writeConfig({
      memories: { enabled: false },
      workers: {
        ...QUIET,
        documents: { intervalMs: 1000, chunkSize: CHUNK.size, chunkOverlap: CHUNK.overlap },
      },
    });
  });

  it("ends every document done with each of its chunks written once", async () => {
    const env = chaosEnv(home);
    const database = join(home.home, "cairn.db");
    const started = Date.now();
    const folder = join(home.root, "handbook");
    mkdirSync(folder);
    const texts = new Map<string, string>();
    for (let d = 0; d < DOCUMENTS; d++) {
      const sentences = Array.from(
        { length: 40 },
        (_, s) => `Step ${s} of runbook ${d}: restart worker pool ${d * 100 + s} after draining queue ${s}.`,
      );
      const name = `runbook-${d}.txt`;
      texts.set(name, sentences.join(" "));
      writeFileSync(join(folder, name), sentences.join(" "));
    }
    const expected = new Map([...texts].map(([name, text]) => [name, chunkText(text, CHUNK.size, CHUNK.overlap)]));
    const init = await runBundled(main, ["status"], env, 60_000);
    expect(init.code, init.stderr).toBe(0);

    // Kill `cairn ingest` (the door that runs its own jobs) and the daemon (whose documents worker runs
    // the jobs a killed ingest left), in turn.
    let round = 0;
    const tally = await killRounds({
      main,
      env,
      database,
      kinds: ["document_ingest"],
      seed: SEED + 2,
      inside: INSIDE,
      rounds: ROUNDS,
      firstDrawMs: 800,
      startMs: 3000,
      args: () => {
        const leftovers = withStore(
          database,
          (db) =>
            (
              db
                .prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'document_ingest' AND status <> 'succeeded'")
                .get() as { n: number }
            ).n,
        );
        round++;
        return round % 2 === 0 && leftovers > 0 ? ["serve", "--port", "0"] : ["ingest", folder, "--scope", "global"];
      },
    });
    const clean = await serveUntil(main, env, database, (db) => {
      const docs = db.prepare("SELECT status FROM documents").all() as Array<{ status: string }>;
      const jobs = jobStatuses(db, ["document_ingest"]);
      return docs.length === DOCUMENTS && docs.every((doc) => doc.status === "done") && jobs.succeeded === DOCUMENTS;
    });
    expect(clean.code, clean.stderr).toBe(0);
    // Ingesting the folder again finds every chunk there: nothing new, nothing removed.
    const again = await runBundled(main, ["ingest", folder, "--scope", "global", "--json"], env, 60_000);
    expect(again.code, again.stderr).toBe(0);

    const found = withStore(database, (db) => {
      const docs = db
        .prepare("SELECT id, source, status, chunk_count AS chunks FROM documents ORDER BY id")
        .all() as Array<{ id: number; source: string; status: string; chunks: number }>;
      const links = db.prepare(
        `SELECT l.chunk_index AS chunk, m.content, m.deleted_at AS deletedAt, m.type FROM document_memories l
           JOIN memories m ON m.id = l.memory_id WHERE l.document_id = ? ORDER BY l.chunk_index`,
      );
      return {
        docs: docs.map((doc) => ({
          ...doc,
          links: links.all(doc.id) as Array<{ chunk: number; content: string; deletedAt: number | null; type: string }>,
        })),
        chunkMemories: (
          db.prepare("SELECT count(*) AS n FROM memories WHERE type = 'document_chunk'").get() as { n: number }
        ).n,
        distinct: (
          db.prepare("SELECT count(DISTINCT content) AS n FROM memories WHERE type = 'document_chunk'").get() as {
            n: number;
          }
        ).n,
        attempts: db
          .prepare("SELECT key, attempts FROM jobs WHERE kind = 'document_ingest' ORDER BY key")
          .all() as Array<{ key: string; attempts: number }>,
      };
    });
    const store = await cleanStore(main, env, database);
    const total = [...expected.values()].reduce((sum, chunks) => sum + chunks.length, 0);
    console.log(
      `[chaos:workers:documents] seed ${SEED + 2}; ${describeTally(tally)}; ${DOCUMENTS} documents, ${total} chunks expected, ` +
        `${found.chunkMemories} chunk memories (${found.distinct} distinct); attempts by document ${found.attempts.map((job) => job.attempts).join(",")}; ` +
        `integrity ${store.integrity}; health ${store.health}; ${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect(tally.during).toBe(INSIDE);
    expect(found.docs).toHaveLength(DOCUMENTS);
    for (const doc of found.docs) {
      const name = doc.source.split("/").at(-1) ?? "";
      const chunks = expected.get(name);
      expect(chunks, doc.source).toBeDefined();
      expect(doc.status).toBe("done");
      expect(doc.chunks).toBe(chunks?.length);
      expect(doc.links.map((link) => link.chunk)).toEqual(chunks?.map((_, index) => index));
      expect(doc.links.map((link) => link.content.trim())).toEqual(chunks?.map((chunk) => chunk.trim()));
      expect(doc.links.every((link) => link.deletedAt === null && link.type === "document_chunk")).toBe(true);
    }
    // Nothing written twice, nothing written and then forgotten by a retry.
    expect(found.chunkMemories).toBe(total);
    expect(found.distinct).toBe(total);
    expect(store.integrity).toBe("ok");
    expect(store.running).toEqual([]);
    expect(store.dead).toEqual([]);
    expect(store.recommendations).toEqual([]);
    expect(store.health, store.detail).toBe(1);
  });
});

describe("checkpoints worker under SIGKILL", () => {
  let home: ChaosHome;
  const OPEN = 50;
  const PROMPTS = 300;
  const OLD = 1200;
  const RECENT = 20;
  const CAP = 3;
  /** Kills inside the period's sweep or prune job, below queue.maxAttempts (5) so the job is not dead. */
  const INSIDE = 4;
  const ROUNDS = 10;

  beforeAll(() => {
    home = makeChaosHome("workers-checkpoints");
    home.writeConfig({
      memories: { enabled: false },
      workers: {
        ...QUIET,
        continuity: {
          enabled: true,
          scoring: false,
          promptInterval: 5,
          maxCheckpointsPerSession: CAP,
          retentionDays: 7,
        },
      },
    });
  });

  it("writes one periodic checkpoint per due session, prunes exactly the old ones, and keeps the cap", async () => {
    const env = chaosEnv(home);
    const database = join(home.home, "cairn.db");
    const started = Date.now();
    const init = await runBundled(main, ["status"], env, 60_000);
    expect(init.code, init.stderr).toBe(0);
    const now = Date.now();
    const open = Array.from({ length: OPEN }, (_, i) => `0199c0de-c4ec-7000-8000-${i.toString(16).padStart(12, "0")}`);
    withStore(database, (db) => {
      const session = db.prepare(
        `INSERT INTO sessions (id, agent, kind, cwd, started_at, updated_at, ended_at, created_at)
           VALUES (?, 'claude-code', 'interactive', ?, ?, ?, ?, ?)`,
      );
      const item = db.prepare(
        "INSERT INTO items (session_id, seq, key, role, text, tool, ts) VALUES (?, ?, ?, ?, ?, ?, ?)",
      );
      const checkpoint = db.prepare(
        `INSERT INTO session_checkpoints (session_key, agent, cwd, trigger, digest, prompt_count, prompt_total, created_at, updated_at)
           VALUES (?, 'claude-code', '/srv/chaos/app', ?, 'earlier work', 1, 1, ?, ?)`,
      );
      db.transaction(() => {
        open.forEach((id, s) => {
          session.run(id, `/srv/chaos/app-${s % 5}`, now - 2 * 3_600_000, now - 60_000, null, now - 2 * 3_600_000);
          let seq = 0;
          for (let p = 0; p < PROMPTS; p++) {
            const at = now - 2 * 3_600_000 + p * 60_000;
            item.run(id, seq, `u${seq}`, "user", `Please make step ${p} of task ${s} pass its check.`, null, at);
            seq++;
            item.run(id, seq, `t${seq}`, "tool_call", `{"command":"npm test -- step-${p}"}`, "Bash", at);
            seq++;
            item.run(id, seq, `a${seq}`, "assistant", `Step ${p} of task ${s} passes now.`, null, at);
            seq++;
          }
        });
        // The first three sessions already hold the cap of recent checkpoints: the new one pushes out the oldest.
        for (const id of open.slice(0, 3))
          for (let c = 0; c < CAP; c++) checkpoint.run(id, "pre_compaction", now - DAY - c, now - DAY - c);
        for (let i = 0; i < OLD; i++) checkpoint.run(`old-${i % 40}`, "session_end", now - 10 * DAY, now - 10 * DAY);
        for (let i = 0; i < RECENT; i++) checkpoint.run(`recent-${i}`, "session_end", now - 2 * DAY, now - 2 * DAY);
      })();
    });

    const tally = await killRounds({
      main,
      env,
      database,
      kinds: ["checkpoint_sweep", "checkpoint_prune"],
      seed: SEED + 3,
      inside: INSIDE,
      rounds: ROUNDS,
      firstDrawMs: 400,
      startMs: 4000,
      args: () => ["serve", "--port", "0"],
      stop: (landing) => landing === "idle",
    });
    const clean = await serveUntil(
      main,
      env,
      database,
      (db) => periodDone(db, "checkpoint_sweep") && periodDone(db, "checkpoint_prune"),
    );
    expect(clean.code, clean.stderr).toBe(0);

    const found = withStore(database, (db) => ({
      perSession: db
        .prepare(
          `SELECT session_key AS id, count(*) AS rows, sum(trigger = 'periodic') AS periodic, max(prompt_total) AS prompts
             FROM session_checkpoints WHERE session_key IN (SELECT value FROM json_each(?)) GROUP BY session_key ORDER BY session_key`,
        )
        .all(JSON.stringify(open)) as Array<{ id: string; rows: number; periodic: number; prompts: number }>,
      old: (
        db.prepare("SELECT count(*) AS n FROM session_checkpoints WHERE updated_at < ?").get(now - 7 * DAY) as {
          n: number;
        }
      ).n,
      recent: (
        db.prepare("SELECT count(*) AS n FROM session_checkpoints WHERE session_key LIKE 'recent-%'").get() as {
          n: number;
        }
      ).n,
      overCap: (
        db
          .prepare(
            "SELECT count(*) AS n FROM (SELECT session_key FROM session_checkpoints GROUP BY session_key HAVING count(*) > ?)",
          )
          .get(CAP) as { n: number }
      ).n,
    }));
    const store = await cleanStore(main, env, database);
    const stats = await workerStats(main, env, "checkpoints");
    console.log(
      `[chaos:workers:checkpoints] seed ${SEED + 3}; ${describeTally(tally)}; ${found.perSession.length} of ${OPEN} sessions checkpointed, ` +
        `${found.old} old checkpoints left of ${OLD}, ${found.recent} recent kept; stats processed ${stats.processed}; integrity ${store.integrity}; health ${store.health}; ` +
        `${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect(tally.during).toBeGreaterThanOrEqual(2);
    expect(found.perSession).toEqual(
      open
        .slice()
        .sort()
        .map((id) => ({ id, rows: open.indexOf(id) < 3 ? CAP : 1, periodic: 1, prompts: PROMPTS })),
    );
    expect(found.old).toBe(0);
    expect(found.recent).toBe(RECENT);
    expect(found.overCap).toBe(0);
    // Finished cycles count what they wrote and pruned; a killed one counts nothing.
    expect(stats.processed).toBeLessThanOrEqual(OPEN + OLD);
    expect(store.integrity).toBe("ok");
    expect(store.running).toEqual([]);
    expect(store.dead).toEqual([]);
    expect(store.health, store.detail).toBe(1);
  });
});

describe("continuity worker under SIGKILL", () => {
  let home: ChaosHome;
  let provider: LoopbackServer;
  const SESSIONS = 8;
  const MEMORIES = 12;
  /** Kills inside the period's scoring job, below queue.maxAttempts (5) so the job is not dead. */
  const INSIDE = 4;
  const ROUNDS = 10;
  const calls = new Map<string, number>();

  beforeAll(async () => {
    // A slow model that scores by what the session says it used ("used memory #12"), so kills land inside
    // its calls, and the expected usage is known.
    const delays = mulberry32(SEED + 40);
    provider = await startLoopbackServer(async (request, res) => {
      if (request.method !== "POST") return { body: { data: [{ id: "fake-model" }] } };
      if (schemaName(request) !== "continuity_score") return { status: 400, body: { error: "not in this test" } };
      const prompt = userPrompt(request);
      const session = /session (\d+) at work/.exec(prompt)?.[1] ?? "?";
      calls.set(session, (calls.get(session) ?? 0) + 1);
      const given = [...prompt.matchAll(/"#(\d+)"/g)].map((m) => m[1]);
      const used = new Set([...prompt.matchAll(/used memory #(\d+)/g)].map((m) => m[1]));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 300 + Math.floor(delays() * 400));
        res.on("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      const answer = {
        score: used.size / Math.max(1, given.length),
        confidence: 0.8,
        reasoning: "scored by the test's model",
        per_memory: given.map((id) => ({ id: `#${id}`, relevance: used.has(id) ? 0.9 : 0.1 })),
      };
      return { body: completion(JSON.stringify(answer)) };
    });
    home = makeChaosHome("workers-continuity");
    home.writeConfig({
      // The ended sessions are not yet idle enough for phase 1: only the continuity worker reads them.
      memories: { enabled: false, minRolloutIdleHours: 720 },
      workers: { ...QUIET, continuity: { enabled: true, scoring: true } },
    });
  });

  afterAll(async () => {
    await provider.close();
  });

  it("scores each ended session once and bumps each used memory once per session that used it", async () => {
    const env = chaosEnv(home, `${provider.url}/v1`);
    const database = join(home.home, "cairn.db");
    const started = Date.now();
    const lines: ExportLine[] = Array.from({ length: MEMORIES }, (_, i) => ({
      id: i + 1,
      content: `deploys of app ${i} go through the staging lane ${i} first`,
    }));
    const memoryIds = [...(await importMemories(main, env, home.root, lines, database)).values()].sort((a, b) => a - b);
    const now = Date.now();
    const expectedUsage = new Map<number, number>(memoryIds.map((id) => [id, 0]));
    const log: string[] = [];
    withStore(database, (db) => {
      const session = db.prepare(
        `INSERT INTO sessions (id, agent, kind, cwd, started_at, updated_at, ended_at, created_at)
           VALUES (?, 'claude-code', 'interactive', '/srv/chaos/app', ?, ?, ?, ?)`,
      );
      const item = db.prepare("INSERT INTO items (session_id, seq, key, role, text, ts) VALUES (?, ?, ?, ?, ?, ?)");
      db.transaction(() => {
        for (let s = 0; s < SESSIONS; s++) {
          const id = `0199c0de-c0a1-7000-8000-${s.toString(16).padStart(12, "0")}`;
          const given = memoryIds.filter((_, m) => (m + s) % 2 === 0).slice(0, 5);
          const used = given.filter((_, g) => (g + s) % 3 === 0);
          for (const memory of used) expectedUsage.set(memory, (expectedUsage.get(memory) ?? 0) + 1);
          session.run(id, now - 3_600_000, now - 600_000, now - 600_000, now - 3_600_000);
          item.run(id, 0, "u0", "user", `Ship the release: session ${s} at work.`, now - 3_000_000);
          item.run(
            id,
            1,
            "a1",
            "assistant",
            `Done. ${used.map((m) => `used memory #${m}`).join(", ") || "No memory needed."}`,
            now - 2_900_000,
          );
          log.push(JSON.stringify({ sessionId: id, agent: "claude-code", at: now - 3_500_000, memoryIds: given }));
        }
      })();
    });
    writeFileSync(join(home.home, "injections.jsonl"), `${log.join("\n")}\n`);

    const tally = await killRounds({
      main,
      env,
      database,
      kinds: ["continuity"],
      seed: SEED + 4,
      inside: INSIDE,
      rounds: ROUNDS,
      firstDrawMs: 1000,
      startMs: 4000,
      args: () => ["serve", "--port", "0"],
      stop: (landing) => landing === "idle" || landing === "after",
    });
    const clean = await serveUntil(main, env, database, (db) => periodDone(db, "continuity"));
    expect(clean.code, clean.stderr).toBe(0);

    const found = withStore(database, (db) => ({
      scores: db
        .prepare("SELECT session_id AS id, method, used, injected FROM session_scores ORDER BY id")
        .all() as Array<{
        id: string;
        method: string;
        used: number;
        injected: number;
      }>,
      usage: new Map(
        (db.prepare("SELECT id, usage_count AS n FROM memories").all() as Array<{ id: number; n: number }>).map(
          (row) => [row.id, row.n],
        ),
      ),
      injections: (db.prepare("SELECT count(*) AS n FROM session_injections").get() as { n: number }).n,
      unscoredRelevance: (
        db.prepare("SELECT count(*) AS n FROM session_injections WHERE relevance IS NULL").get() as { n: number }
      ).n,
    }));
    const store = await cleanStore(main, env, database);
    const stats = await workerStats(main, env, "continuity");
    const modelCalls = [...calls.values()].reduce((a, b) => a + b, 0);
    console.log(
      `[chaos:workers:continuity] seed ${SEED + 4}; ${describeTally(tally)}; ${found.scores.length} of ${SESSIONS} sessions scored, ` +
        `${modelCalls} model calls; stats processed ${stats.processed}; integrity ${store.integrity}; health ${store.health}; ` +
        `${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect(tally.during).toBeGreaterThanOrEqual(2);
    // A kill can orphan the one call in flight; any call beyond that is a session scored twice.
    expect(modelCalls).toBeLessThanOrEqual(SESSIONS + tally.kills);
    expect(found.scores).toHaveLength(SESSIONS);
    expect(found.scores.every((score) => score.method === "model" && score.injected === 5)).toBe(true);
    expect(found.unscoredRelevance).toBe(0);
    expect(found.injections).toBe(SESSIONS * 5);
    // Each used memory's usage equals the sessions that used it: no bump lost to a kill, none doubled.
    expect(Object.fromEntries(found.usage)).toEqual(Object.fromEntries(expectedUsage));
    expect(stats.processed).toBeLessThanOrEqual(SESSIONS);
    expect(store.integrity).toBe("ok");
    expect(store.running).toEqual([]);
    expect(store.dead).toEqual([]);
    expect(store.health, store.detail).toBe(1);
  });
});

/** The kept memories' rows as one string, to compare before and after. */
function keptRows(db: import("better-sqlite3").Database, ids: number[]): string {
  const rows = db
    .prepare(
      `SELECT id, content, content_hash, deleted_at, superseded_by, superseded_at, usage_count, updated_at FROM memories
         WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    )
    .all(JSON.stringify(ids));
  return JSON.stringify(rows);
}

/** Rows in the tables retention deletes from. */
function totalRows(db: import("better-sqlite3").Database): number {
  return [
    "memories",
    "embeddings",
    "memory_history",
    "jobs",
    "entities",
    "memory_entity_mentions",
    "relations",
    "memory_hints",
  ].reduce((sum, table) => sum + (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, 0);
}
