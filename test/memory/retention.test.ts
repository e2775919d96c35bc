import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { configSchema } from "../../src/config/schema.js";
import { type RetentionStep, runRetention } from "../../src/memory/retention/runRetention.js";
import type { Storage } from "../../src/store/storage.js";
import { withWriteTx } from "../../src/store/tx.js";
import { DAY_MS } from "../../src/util/clock.js";
import { CairnError } from "../../src/util/errors.js";
import { memoryStorage } from "../helpers/store.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// The retention sweep's rules (seed 004 "Retention Worker") with an injected clock: what expires after
// which window, in which order, in batches, each step committed on its own, and what restore can still do.

const settings = configSchema().parse({}).workers.retention;
const count = (storage: Storage, sql: string, ...params: unknown[]): number =>
  (storage.db.prepare(sql).get(...params) as { n: number }).n;

describe("retention of forgotten and replaced memories", () => {
  let temp: TempHome;
  let cairn: Cairn;
  let now = Date.UTC(2026, 0, 1);
  const sweep = (onStep?: (step: RetentionStep, rows: number) => void) =>
    runRetention({ storage: cairn.storage, settings, now, ...(onStep ? { onStep } : {}) });

  beforeEach(() => {
    temp = tempHome();
    now = Date.UTC(2026, 0, 1);
    cairn = new Cairn({ home: temp.home, env: temp.env, clock: () => now });
  });

  afterEach(() => {
    cairn.close();
    temp.cleanup();
  });

  async function remember(content: string): Promise<number> {
    const [outcome] = await cairn.remember({ content, cwd: temp.project, scope: "global" });
    if (outcome?.status !== "created" || outcome.id === undefined) throw new Error(`not stored: ${content}`);
    return outcome.id;
  }

  const entityId = (name: string) =>
    (
      cairn.storage.db.prepare("SELECT id FROM entities WHERE canonical_name = ?").get(name) as
        | { id: number }
        | undefined
    )?.id;
  const mentionsOf = (name: string) =>
    (
      cairn.storage.db.prepare("SELECT mentions FROM entities WHERE canonical_name = ?").get(name) as
        | { mentions: number }
        | undefined
    )?.mentions;

  it("keeps a forgotten memory 29 days and purges it at 31: graph links first, then embeddings, then the row, each step committed", async () => {
    const gone = await remember("deploys run `zephyrctl` against `kubeplan` clusters");
    const kept = await remember("the nightly logs are shipped by `kubeplan` as well");
    const { storage } = cairn;
    const hash = cairn.memories.get(gone)?.contentHash;
    storage.search.addHints(gone, ["how do deploys reach the clusters"], now);
    storage.graph.upsertRelation(entityId("zephyrctl")!, entityId("kubeplan")!, "uses", 0.9, now);
    expect(mentionsOf("kubeplan")).toBe(2);
    cairn.forgetMemory({ id: gone });
    // A vector-index row left behind for the tombstone (forget removes it; a crash between two writes of
    // an older cairn might not have): the sweep removes it with the embeddings.
    const probe = new Float32Array(storage.vectors.dimensions).fill(0.5);
    if (storage.vectors.enabled) storage.vectors.upsert(gone, "global", probe);

    now += 29 * DAY_MS;
    expect(sweep().memories).toBe(0);
    expect(cairn.memories.get(gone)?.deletedAt).not.toBeNull();

    now += 2 * DAY_MS;
    const seen: Array<[RetentionStep, Record<string, number | boolean>]> = [];
    const report = sweep((step) =>
      seen.push([
        step,
        {
          inTransaction: storage.db.inTransaction,
          links: count(storage, "SELECT count(*) AS n FROM memory_entity_mentions WHERE memory_id = ?", gone),
          embedding: count(storage, "SELECT count(*) AS n FROM embeddings WHERE content_hash = ?", hash),
          row: count(storage, "SELECT count(*) AS n FROM memories WHERE id = ?", gone),
        },
      ]),
    );
    expect(seen.map(([step]) => step)).toEqual([
      "graph",
      "embeddings",
      "memories",
      "history",
      "completedJobs",
      "deadJobs",
    ]);
    // Each step has committed before the next begins, and links go before the rows they point from.
    expect(seen.slice(0, 3)).toEqual([
      ["graph", { inTransaction: false, links: 0, embedding: 1, row: 1 }],
      ["embeddings", { inTransaction: false, links: 0, embedding: 0, row: 1 }],
      ["memories", { inTransaction: false, links: 0, embedding: 0, row: 0 }],
    ]);
    expect(report).toMatchObject({ memories: 1, entities: 1, relations: 1, embeddings: 1 });
    expect(storage.vectors.candidates(probe, "all", 10)).not.toContain(gone);
    // The orphan went with its relation; the shared entity stays, one mention fewer.
    expect(entityId("zephyrctl")).toBeUndefined();
    expect(mentionsOf("kubeplan")).toBe(1);
    expect(count(storage, "SELECT count(*) AS n FROM relations")).toBe(0);
    // Hints, their full-text rows, history and subject keys follow the row.
    expect(count(storage, "SELECT count(*) AS n FROM memory_hints WHERE memory_id = ?", gone)).toBe(0);
    expect(count(storage, "SELECT count(*) AS n FROM memory_hints_fts WHERE memory_hints_fts MATCH 'clusters'")).toBe(
      0,
    );
    expect(count(storage, "SELECT count(*) AS n FROM memory_history WHERE memory_id = ?", gone)).toBe(0);
    expect(count(storage, "SELECT count(*) AS n FROM memory_subjects WHERE memory_id = ?", gone)).toBe(0);
    expect(count(storage, "SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH 'zephyrctl'")).toBe(0);
    // The live memory is untouched and still found.
    expect(cairn.memories.get(kept)?.deletedAt).toBeNull();
    expect((await cairn.recall({ query: "nightly logs kubeplan", scope: "all" })).results.map((r) => r.id)).toContain(
      kept,
    );
  });

  it("finishes at the next sweep what a sweep stopped between two steps left (a crash after the graph step)", async () => {
    const id = await remember("builds are cached by `turbocache` on the runners");
    cairn.forgetMemory({ id });
    now += 31 * DAY_MS;
    expect(() =>
      sweep((step) => {
        if (step === "graph") throw new Error("killed");
      }),
    ).toThrow("killed");
    expect(count(cairn.storage, "SELECT count(*) AS n FROM memory_entity_mentions WHERE memory_id = ?", id)).toBe(0);
    expect(cairn.memories.get(id)).toBeDefined();
    expect(sweep()).toMatchObject({ memories: 1, embeddings: 1 });
    expect(cairn.memories.get(id)).toBeUndefined();
  });

  it("restores a forgotten memory inside the window, and after it refuses with a message that says why", async () => {
    const early = await remember("the staging database is reset every Monday");
    const late = await remember("the release branch is cut on Thursdays");
    cairn.forgetMemory({ id: early });
    cairn.forgetMemory({ id: late });
    now += 29 * DAY_MS;
    sweep();
    expect(cairn.restoreMemory({ id: early })).toMatchObject({ change: "restored" });
    now += 2 * DAY_MS;
    sweep();
    let refused: CairnError | undefined;
    try {
      cairn.restoreMemory({ id: late });
    } catch (error) {
      if (CairnError.isInstance(error)) refused = error;
    }
    expect(refused?.code).toBe("memory_not_found");
    expect(refused?.message).toMatch(
      new RegExp(`^memory #${late} was removed for good: .*tombstoneDays.*Nothing was changed$`),
    );
    // The restored one is live and stays.
    expect(cairn.memories.get(early)?.deletedAt).toBeNull();
  });

  it("purges a forgotten document with its last chunk (title and source too); a chunk another document holds stays, cited under it", async () => {
    const shared = "The staging procedure needs a review before every release of the shop.";
    const ingest = async (content: string, title: string) =>
      (await cairn.ingest({ content, title, cwd: temp.project, scope: "global" })).documents[0]!;
    const a = await ingest(shared, "Zanzibar plan");
    const b = await ingest(shared, "staging note");
    const c = await ingest("The Zanzibar merger stays between us.", "Zanzibar terms");
    const kept = await ingest("The rollback procedure takes five minutes.", "rollback note");
    const sharedId = cairn.document({ id: b.id }).chunks[0]!.memoryId;
    expect(cairn.document({ id: a.id }).chunks[0]!.memoryId).toBe(sharedId);
    cairn.forgetDocument({ id: a.id });
    cairn.forgetDocument({ id: c.id });
    cairn.forgetDocument({ id: kept.id });
    // A chunk restored by hand keeps its forgotten document: it still cites it.
    const restored = cairn.document({ id: kept.id }).chunks[0]!.memoryId;
    cairn.restoreMemory({ id: restored });

    now += 31 * DAY_MS;
    expect(sweep()).toMatchObject({ memories: 1, documents: 2 });
    const documents = cairn.storage.db.prepare("SELECT id FROM documents ORDER BY id").all() as Array<{ id: number }>;
    expect(documents.map((row) => row.id)).toEqual([b.id, kept.id]);
    expect(count(cairn.storage, "SELECT count(*) AS n FROM documents WHERE title LIKE '%Zanzibar%'")).toBe(0);
    expect(cairn.memories.get(sharedId)).toMatchObject({
      deletedAt: null,
      ref: `document #${b.id} "staging note" (text: staging note)`,
    });
    expect(cairn.memories.get(restored)?.ref).toMatch(new RegExp(`^document #${kept.id} `));
    expect(sweep()).toMatchObject({ memories: 0, documents: 0 });
  });

  it("keeps a replaced memory for the history window (180 days), restorable until then", async () => {
    const old = await remember("the API gateway is Kong");
    const change = await cairn.editMemory({ id: old, content: "the API gateway is Envoy" });
    now += 31 * DAY_MS;
    expect(sweep().memories).toBe(0);
    expect(cairn.memories.get(old)?.supersededBy).toBe(change.replacedBy);
    now += 150 * DAY_MS;
    expect(sweep().memories).toBe(1);
    expect(cairn.memories.get(old)).toBeUndefined();
    // The successor's history outlived 180 days too (it was written with the edit): it goes as well.
    expect(
      count(cairn.storage, "SELECT count(*) AS n FROM memory_history WHERE memory_id = ?", change.replacedBy),
    ).toBe(0);
    expect(cairn.memories.get(change.replacedBy!)?.deletedAt).toBeNull();
  });
});

describe("retention batches, history and jobs", () => {
  let now = 0;
  const clock = () => now;
  let storage: Storage;

  beforeEach(() => {
    now = Date.UTC(2026, 0, 1);
    storage = memoryStorage(clock);
  });
  afterEach(() => storage.close());

  const sweep = () => runRetention({ storage, settings, now });

  function tombstones(n: number, deletedAt: number): void {
    const insert = storage.db.prepare(
      `INSERT INTO memories (content, normalized_content, content_hash, scope, created_at, updated_at, deleted_at)
         VALUES (?, ?, ?, 'global', ?, ?, ?)`,
    );
    withWriteTx(storage.db, () => {
      for (let i = 0; i < n; i++) insert.run(`fact ${i}`, `fact ${i}`, `h${i}`, deletedAt, deletedAt, deletedAt);
    });
  }

  it("takes at most 500 rows per step and sweep: 1,200 expired memories take 3 sweeps", () => {
    tombstones(1200, now);
    now += 31 * DAY_MS;
    const sweeps = [sweep(), sweep(), sweep(), sweep()];
    expect(sweeps.map((r) => [r.memories, r.more])).toEqual([
      [500, true],
      [500, true],
      [200, false],
      [0, false],
    ]);
    expect(count(storage, "SELECT count(*) AS n FROM memories")).toBe(0);
  });

  it("purges history after 180 days and keeps newer history", () => {
    const add = (at: number) =>
      storage.history.add({ memoryId: null, event: "skipped", newContent: `audit at ${at}`, now: at });
    add(now - 181 * DAY_MS);
    add(now - 179 * DAY_MS);
    expect(sweep().history).toBe(1);
    expect(count(storage, "SELECT count(*) AS n FROM memory_history")).toBe(1);
  });

  it("purges completed jobs after 14 days and dead jobs after 30; pending, failed and running jobs stay", () => {
    const finish = (key: string, outcome: "succeed" | "noOutput" | "dead" | "fail" | "run" | "pending") => {
      storage.jobs.enqueue({ kind: "k", key, ...(outcome === "dead" ? { maxAttempts: 1 } : {}) });
      if (outcome === "pending") return;
      const [lease] = storage.jobs.claim({ kind: "k", limit: 1, keys: [key] });
      if (!lease) throw new Error("no lease");
      if (outcome === "succeed") storage.jobs.succeed(lease);
      if (outcome === "noOutput") storage.jobs.succeed(lease, { status: "succeeded_no_output" });
      if (outcome === "dead" || outcome === "fail") storage.jobs.fail(lease, "broken");
    };
    for (const outcome of ["succeed", "noOutput", "dead", "fail", "run", "pending"] as const) finish(outcome, outcome);
    const statuses = () =>
      storage.jobs
        .list({ kind: "k" })
        .map((job) => `${job.key}:${job.status}`)
        .sort();
    now += 13 * DAY_MS;
    expect(sweep()).toMatchObject({ completedJobs: 0, deadJobs: 0 });
    now += 2 * DAY_MS;
    expect(sweep()).toMatchObject({ completedJobs: 2, deadJobs: 0 });
    now += 14 * DAY_MS;
    expect(sweep()).toMatchObject({ completedJobs: 0, deadJobs: 0 });
    now += 2 * DAY_MS;
    expect(sweep()).toMatchObject({ completedJobs: 0, deadJobs: 1 });
    expect(statuses()).toEqual(["fail:failed", "pending:pending", "run:running"]);
  });
});
