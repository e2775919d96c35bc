import { describe, expect, it } from "vitest";
import { runReviseJobs } from "../../src/memory/lifecycle/runReviseJobs.js";
import { ingestFacts } from "../../src/pipeline/facts/ingestFacts.js";
import { parseDecision } from "../../src/pipeline/facts/parseDecision.js";
import type { Fact } from "../../src/pipeline/facts/types.js";
import { FakeLlm } from "../helpers/fakeLlm.js";
import { makeStore } from "../memory/storeFixture.js";

const fact = (content: string, confidence = 0.9): Fact => ({ content, type: "fact", confidence, evidence: [3, 5] });
const scope = "proj";
/** The batched decisions answer (fact_decisions.md): one entry per fact number. */
const answer = (...decisions: Array<{ fact?: number; action: string; targetId?: number | null; reason: string }>) => ({
  json: { decisions: decisions.map((d) => ({ fact: 1, targetId: null, confidence: 0.9, ...d })) },
});

describe("ingestFacts", () => {
  it("adds without a model call when nothing similar exists, and records provenance", async () => {
    const { db, store } = makeStore();
    const llm = new FakeLlm();
    const result = await ingestFacts(
      { facts: [fact("The API server listens on port 8080")], entities: [], scope, provenance: { sessionId: "s1" } },
      { store, db, llm },
    );
    expect(result.outcomes[0]).toMatchObject({
      status: "created",
      decision: { action: "ADD", decidedBy: "no-candidates" },
    });
    expect(llm.calls).toHaveLength(0);
    expect(store.get(result.outcomes[0]!.memoryId!)).toMatchObject({
      scope,
      provenance: { sessionId: "s1", itemFrom: 3, itemTo: 5 },
      who: "fact-pipeline",
    });
  });

  it("decides NONE for a near duplicate without a model, and applies the gates", async () => {
    const { db, store } = makeStore();
    await ingestFacts(
      { facts: [fact("Tests run with vitest in forks mode")], entities: [], scope, provenance: {} },
      { store, db },
    );
    const result = await ingestFacts(
      {
        facts: [fact("tests run with Vitest in forks mode."), fact("   "), fact("Maybe the cache is stale", 0.4)],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db, llm: null },
    );
    expect(result.outcomes.map((o) => [o.status, o.decision?.action ?? null, o.reason ?? null])).toEqual([
      ["none", "NONE", null],
      ["skipped", null, "empty_fact_content"],
      ["skipped", null, "low_fact_confidence"],
    ]);
    expect(store.counts().live).toBe(1);
  });

  it("keeps one memory when two sessions in flight at once state the same fact in other words", async () => {
    const { db, store } = makeStore();
    const session = (sessionId: string, content: string) =>
      ingestFacts({ facts: [fact(content)], entities: [], scope, provenance: { sessionId } }, { store, db, llm: null });
    // Both take their candidates before either writes, as concurrent sessions of one extraction do.
    const [first, second] = await Promise.all([
      session("s1", "Run the unit tests with pnpm vitest in the api package"),
      session("s2", "In the api package, run the unit tests with pnpm vitest"),
    ]);
    expect(first.outcomes[0]).toMatchObject({ status: "created", decision: { action: "ADD" } });
    expect(second.outcomes[0]).toMatchObject({
      status: "none",
      targetId: first.outcomes[0]!.memoryId,
      decision: { action: "NONE", reason: "near duplicate of a memory another session stored meanwhile" },
    });
    expect(store.counts().live).toBe(1);
    // A different fact stored meanwhile is no reason to drop one.
    const [third, fourth] = await Promise.all([
      session("s3", "The staging database is Postgres 16 on port 5433"),
      session("s4", "Deploys to staging go through the release branch"),
    ]);
    expect([third.outcomes[0]?.status, fourth.outcomes[0]?.status]).toEqual(["created", "created"]);
  });

  it("never lets an older statement replace or delete a newer memory, whatever the model decides", async () => {
    const { db, store } = makeStore();
    const june = Date.parse("2026-06-10T12:00:00Z");
    const march = Date.parse("2026-03-02T12:00:00Z");
    const current = await ingestFacts(
      {
        facts: [{ ...fact("The API listens on port 8080 locally"), occurredAt: june }],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db },
    );
    const newerId = current.outcomes[0]!.memoryId!;
    // An older session, extracted later: the model reads the texts and proposes to replace the newer one.
    const llm = new FakeLlm({ answers: [answer({ action: "UPDATE", targetId: newerId, reason: "port" })] });
    const late = await ingestFacts(
      {
        facts: [{ ...fact("The API listens on port 3000 locally"), occurredAt: march }],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db, llm },
    );
    const olderId = late.outcomes[0]!.memoryId!;
    expect(late.outcomes[0]).toMatchObject({ status: "created", targetId: newerId, reason: "older_than_target" });
    expect(store.get(newerId)?.deletedAt).toBeNull();
    expect(store.get(olderId)?.supersededBy).toBe(newerId);
    const deleting = new FakeLlm({ answers: [answer({ action: "DELETE", targetId: newerId, reason: "gone" })] });
    const deleted = await ingestFacts(
      {
        facts: [{ ...fact("The API has no local port, it runs only in staging"), occurredAt: march }],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db, llm: deleting },
    );
    expect(deleted.outcomes[0]).toMatchObject({ status: "blocked", reason: "target_is_newer" });
    expect(store.get(newerId)?.deletedAt).toBeNull();
  });

  it("applies UPDATE as a supersession and DELETE as a tombstone, keeping history", async () => {
    const { db, store } = makeStore();
    const first = await ingestFacts(
      { facts: [fact("The deploy target is Heroku for the staging app")], entities: [], scope, provenance: {} },
      { store, db },
    );
    const oldId = first.outcomes[0]!.memoryId!;
    const llm = new FakeLlm({
      answers: [answer({ action: "UPDATE", targetId: oldId, reason: "moved to Fly" })],
    });
    const updated = await ingestFacts(
      { facts: [fact("The deploy target is Fly.io for the staging app")], entities: [], scope, provenance: {} },
      { store, db, llm },
    );
    expect(updated.outcomes[0]).toMatchObject({ status: "updated", targetId: oldId });
    expect(llm.lastCall?.prompt).toContain(`"id":${oldId}`);
    expect(llm.lastCall?.prompt).toMatch(/<<<MEMORY DATA [0-9a-f]{12}>>>/);
    expect(llm.lastCall?.system).toContain("targetId");
    expect(store.get(oldId)?.deletedAt).not.toBeNull();
    const newId = updated.outcomes[0]!.memoryId!;
    expect(store.get(oldId)?.supersededBy).toBe(newId);
    expect(store.historyOf(oldId).map((e) => e.event)).toEqual(["created", "fact_created", "superseded"]);
    expect(store.historyOf(oldId)[2]?.reason).toBe("moved to Fly");
    expect(store.historyOf(newId).map((e) => e.event)).toEqual(["created", "fact_updated"]);
    const recalled = await store.recall({ query: "deploy target staging app", scopes: [scope], countUsage: false });
    expect(recalled.results.map((r) => r.id)).toEqual([newId]);

    llm.enqueue(
      `<think>no longer true</think>\n\`\`\`json\n{"decisions":[{"fact":1,"action":"DELETE","targetId":${newId},"confidence":0.8,"reason":"staging app removed"}]}\n\`\`\``,
    );
    const deleted = await ingestFacts(
      { facts: [fact("The staging app deploy target was removed")], entities: [], scope, provenance: {} },
      { store, db, llm },
    );
    expect(deleted.outcomes[0]).toMatchObject({ status: "deleted", targetId: newId });
    expect(store.counts().live).toBe(0);
  });

  it("falls back to the deterministic decision on a hallucinated target and blocks destructive actions when disabled", async () => {
    const { db, store } = makeStore();
    await ingestFacts(
      { facts: [fact("Use pnpm for every package install")], entities: [], scope, provenance: {} },
      { store, db },
    );
    const llm = new FakeLlm({ answers: [answer({ action: "DELETE", targetId: 999, reason: "x" })] });
    const r = await ingestFacts(
      { facts: [fact("Package installs use pnpm workspaces")], entities: [], scope, provenance: {} },
      { store, db, llm },
    );
    expect(r.outcomes[0]?.decision?.decidedBy).toBe("deterministic");
    expect(r.warnings[0]).toContain("not a candidate");
    const blocked = await ingestFacts(
      { facts: [fact("Package installs now use npm")], entities: [], scope, provenance: {} },
      {
        store,
        db,
        llm: new FakeLlm({ fallback: answer({ action: "DELETE", targetId: 1, reason: "switched" }) }),
        config: { allowUpdateDelete: false },
      },
    );
    expect(blocked.outcomes[0]).toMatchObject({ status: "blocked", reason: "update_delete_disabled" });
    expect(store.get(1)?.deletedAt).toBeNull();
  });

  it("writes entity triples to the graph with running-average confidence", async () => {
    const { db, store } = makeStore();
    const entities = [{ source: "billing service", relationship: "uses", target: "PostgreSQL", confidence: 0.8 }];
    await ingestFacts(
      { facts: [fact("The billing service stores invoices in PostgreSQL")], entities, scope, provenance: {} },
      { store, db },
    );
    await ingestFacts(
      {
        facts: [fact("Billing keeps a read replica of the invoices database")],
        entities: [{ ...entities[0]!, confidence: 0.4 }],
        scope,
        provenance: {},
      },
      { store, db },
    );
    const relation = db.prepare("SELECT mentions, confidence FROM relations").get() as {
      mentions: number;
      confidence: number;
    };
    expect(relation.mentions).toBe(2);
    expect(relation.confidence).toBeCloseTo(0.6);
  });

  it("records proposals only in shadow mode", async () => {
    const { db, store } = makeStore();
    const r = await ingestFacts(
      { facts: [fact("Shadow facts are never written")], entities: [], scope, provenance: {} },
      { store, db, config: { shadow: true } },
    );
    expect(r.outcomes[0]).toMatchObject({ status: "none", reason: "shadow_mode" });
    expect(store.counts().live).toBe(0);
    expect(store.storage.history.recent("fact_none", 5)).toHaveLength(1);
  });
});

describe("batched decisions", () => {
  const seed = async (
    store: ReturnType<typeof makeStore>["store"],
    db: ReturnType<typeof makeStore>["db"],
    texts: string[],
  ) =>
    (
      await ingestFacts({ facts: texts.map((t) => fact(t)), entities: [], scope, provenance: {} }, { store, db })
    ).outcomes.map((o) => o.memoryId!);

  it("decides every fact with candidates in one model call; exact duplicates and new subjects need none", async () => {
    const { db, store } = makeStore();
    const [port, db1, cache] = await seed(store, db, [
      "The API server listens on port 3000 locally",
      "The invoices database is MySQL 8",
      "Build caches live in the .turbo folder",
    ]);
    const llm = new FakeLlm({
      answers: [
        answer(
          { fact: 1, action: "UPDATE", targetId: port!, reason: "new port" },
          { fact: 2, action: "UPDATE", targetId: db1!, reason: "moved to Postgres" },
        ),
      ],
    });
    const result = await ingestFacts(
      {
        facts: [
          fact("The API server listens on port 8080 locally"),
          fact("The invoices database is PostgreSQL 16"),
          fact("Build caches live in the .turbo folder."),
          fact("Release notes are written in CHANGES.md"),
          fact("The staging cluster runs on Fly.io machines"),
        ],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db, llm },
    );
    expect(llm.calls).toHaveLength(1);
    const asked = llm.calls[0]!.prompt;
    expect(asked).toContain("port 8080");
    expect(asked).toContain("PostgreSQL 16");
    expect(asked).not.toContain("CHANGES.md");
    expect(llm.calls[0]!.jsonSchema?.name).toBe("fact_decisions");
    expect(result.outcomes.map((o) => [o.status, o.decision?.decidedBy])).toEqual([
      ["updated", "llm"],
      ["updated", "llm"],
      ["none", "exact-duplicate"],
      ["created", "no-candidates"],
      ["created", "no-candidates"],
    ]);
    expect(result.outcomes[2]!.targetId).toBe(cache);
    expect(store.get(port!)?.supersededBy).toBe(result.outcomes[0]!.memoryId);
  });

  it("decides a fact the answer leaves out deterministically, with a warning", async () => {
    const { db, store } = makeStore();
    const [old] = await seed(store, db, ["Lint runs with eslint and the airbnb preset"]);
    const llm = new FakeLlm({ answers: [answer({ fact: 7, action: "NONE", reason: "same" })] });
    const result = await ingestFacts(
      {
        facts: [fact("Lint runs with biome instead of eslint and the airbnb preset")],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db, llm },
    );
    expect(result.outcomes[0]?.decision?.decidedBy).toBe("deterministic");
    expect(result.warnings.join("\n")).toContain("fact 7, which was not asked about");
    expect(result.warnings.join("\n")).toContain("fact 1: no decision");
    expect(store.get(old!)?.deletedAt).toBeNull();
  });

  it("adds a fact the model calls a duplicate of a candidate it reverses; a duplicate in substance stays NONE", async () => {
    const { db, store } = makeStore();
    const [npm, vitest] = await seed(store, db, [
      "Use npm for package installs in the web app",
      "Unit tests run with Vitest in the web app",
    ]);
    const llm = new FakeLlm({
      answers: [
        answer(
          { fact: 1, action: "NONE", targetId: npm!, reason: "same subject" },
          { fact: 2, action: "NONE", targetId: vitest!, reason: "same thing in other words" },
        ),
      ],
    });
    const result = await ingestFacts(
      {
        facts: [fact("Never use npm for package installs in the web app"), fact("The web app's unit tests use Vitest")],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db, llm },
    );
    expect(result.outcomes.map((o) => [o.status, o.decision?.action])).toEqual([
      ["created", "ADD"],
      ["none", "NONE"],
    ]);
    expect(result.outcomes[0]?.decision?.reason).toContain("no candidate states the same values and polarity");
    expect(result.outcomes[1]?.targetId).toBe(vitest);
  });

  it("uses minConfidence from the config instead of a fixed threshold", async () => {
    const { db, store } = makeStore();
    const result = await ingestFacts(
      { facts: [fact("Docs build with mkdocs", 0.6)], entities: [], scope, provenance: {} },
      { store, db, config: { minConfidence: 0.5 } },
    );
    expect(result.outcomes[0]?.status).toBe("created");
  });
});

describe("contradiction flags", () => {
  const reviews = (db: ReturnType<typeof makeStore>["db"]) =>
    db
      .prepare("SELECT memory_id, related_id, proposed_content, detector, reason FROM memory_reviews ORDER BY id")
      .all() as Array<{
      memory_id: number;
      related_id: number | null;
      proposed_content: string | null;
      detector: string;
      reason: string;
    }>;

  it("leaves an added fact that negates a stored memory to the revise job, which replaces the older one", async () => {
    const { db, store, advance } = makeStore();
    const old = (
      await ingestFacts(
        { facts: [fact("Use npm for package installs in the web app")], entities: [], scope, provenance: {} },
        { store, db },
      )
    ).outcomes[0]!.memoryId!;
    advance(60_000);
    const llm = new FakeLlm({ answers: [answer({ action: "ADD", reason: "new rule" })] });
    const result = await ingestFacts(
      { facts: [fact("Never use npm for package installs in the web app")], entities: [], scope, provenance: {} },
      { store, db, llm },
    );
    const outcome = result.outcomes[0]!;
    expect(outcome).toMatchObject({ status: "created" });
    expect(outcome.reviewNeeded).toBeUndefined();
    expect(reviews(db)).toEqual([]);
    const revised = await runReviseJobs({ store });
    expect(revised.superseded).toMatchObject([{ oldId: old, newId: outcome.memoryId }]);
  });

  it("flags nothing for a fact that only shares words and a negation with its neighbours", async () => {
    const { db, store } = makeStore();
    for (const text of [
      "notes-cli runs on Node 20 with tsx; run the tests with npx vitest",
      "Tags are stored lowercase without the leading #, and repeated --tag flags are combined",
    ])
      await ingestFacts({ facts: [fact(text)], entities: [], scope, provenance: {} }, { store, db });
    const llm = new FakeLlm({ answers: [answer({ action: "ADD", reason: "new" })] });
    await ingestFacts(
      {
        facts: [fact("Argument parsing in notes-cli uses parseArgs; the user did not want commander for a small CLI")],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db, llm },
    );
    await runReviseJobs({ store });
    expect(reviews(db)).toEqual([]);
  });

  it.each([
    ["Use npm for package installs in the web app", "Never use npm for package installs in the web app"],
    [
      "The payments API listens on port 3000 in the local docker compose setup",
      "The payments API listens on port 8080 in the local docker compose setup",
    ],
    [
      "CI runs the unit tests on Node 20 with the ubuntu-latest runner image",
      "CI runs the unit tests on Node 22 with the ubuntu-latest runner image",
    ],
    ["Telemetry is enabled on the dev server by default", "Telemetry is disabled on the dev server by default"],
  ])("without a model, %s then %s is an update, not a duplicate", async (before, after) => {
    const { db, store, advance } = makeStore();
    const old = (await ingestFacts({ facts: [fact(before)], entities: [], scope, provenance: {} }, { store, db }))
      .outcomes[0]!.memoryId!;
    advance(60_000);
    const result = await ingestFacts({ facts: [fact(after)], entities: [], scope, provenance: {} }, { store, db });
    expect(result.outcomes[0]).toMatchObject({ status: "created" });
    await runReviseJobs({ store });
    expect(store.get(old)?.deletedAt).not.toBeNull();
  });

  it("still finds a reworded fact a duplicate without a model", async () => {
    const { db, store } = makeStore();
    await ingestFacts(
      { facts: [fact("The API server listens on port 8080 in development")], entities: [], scope, provenance: {} },
      { store, db },
    );
    const result = await ingestFacts(
      { facts: [fact("In development the API server listens on port 8080")], entities: [], scope, provenance: {} },
      { store, db },
    );
    expect(result.outcomes[0]).toMatchObject({ status: "none" });
  });

  it("with updates not allowed, a model's UPDATE stores the newer fact and flags the one it would replace", async () => {
    const { db, store } = makeStore();
    const old = (
      await ingestFacts(
        {
          facts: [fact("The nightly export writes CSV files to the reports bucket")],
          entities: [],
          scope,
          provenance: {},
        },
        { store, db },
      )
    ).outcomes[0]!.memoryId!;
    const llm = new FakeLlm({ answers: [answer({ action: "UPDATE", targetId: old, reason: "format changed" })] });
    const result = await ingestFacts(
      {
        facts: [fact("The nightly export writes Parquet files to the reports bucket")],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db, llm, config: { allowUpdateDelete: false } },
    );
    const newer = result.outcomes[0]!.memoryId!;
    expect(result.outcomes[0]).toMatchObject({ status: "created", targetId: old, reason: "update_delete_disabled" });
    expect(store.get(newer)?.content).toBe("The nightly export writes Parquet files to the reports bucket");
    expect(store.get(old)?.deletedAt).toBeNull();
    expect(reviews(db)).toEqual([
      {
        memory_id: old,
        related_id: newer,
        proposed_content: null,
        detector: "model",
        reason: "would supersede: format changed",
      },
    ]);
  });

  it("with updates not allowed, a model's DELETE flags its target with the fact as the proposed text", async () => {
    const { db, store } = makeStore();
    const old = (
      await ingestFacts(
        { facts: [fact("The nightly export runs at 02:00 UTC")], entities: [], scope, provenance: {} },
        { store, db },
      )
    ).outcomes[0]!.memoryId!;
    const llm = new FakeLlm({ answers: [answer({ action: "DELETE", targetId: old, reason: "export retired" })] });
    const result = await ingestFacts(
      { facts: [fact("The nightly export job was retired")], entities: [], scope, provenance: {} },
      { store, db, llm, config: { allowUpdateDelete: false } },
    );
    expect(result.outcomes[0]).toMatchObject({ status: "blocked", reason: "update_delete_disabled" });
    expect(store.get(old)?.deletedAt).toBeNull();
    expect(reviews(db)).toEqual([
      {
        memory_id: old,
        related_id: null,
        proposed_content: "The nightly export job was retired",
        detector: "model",
        reason: "would forget: export retired",
      },
    ]);
  });

  it("flags a blocked DELETE with the proposed text, and leaves unrelated facts unflagged", async () => {
    const { db, store } = makeStore();
    const old = (
      await ingestFacts(
        { facts: [fact("Telemetry is enabled on the dev server")], entities: [], scope, provenance: {} },
        { store, db },
      )
    ).outcomes[0]!.memoryId!;
    const llm = new FakeLlm({ answers: [answer({ action: "DELETE", targetId: old, reason: "turned off" })] });
    const result = await ingestFacts(
      { facts: [fact("Telemetry is disabled on the dev server")], entities: [], scope, provenance: {} },
      { store, db, llm, config: { allowUpdateDelete: false } },
    );
    expect(result.outcomes[0]).toMatchObject({ status: "blocked", reviewNeeded: true });
    expect(reviews(db)).toEqual([
      {
        memory_id: old,
        related_id: null,
        proposed_content: "Telemetry is disabled on the dev server",
        detector: "syntactic",
        reason: expect.stringContaining("disable / enable"),
      },
    ]);
    await ingestFacts(
      { facts: [fact("The dev server restarts on file changes")], entities: [], scope, provenance: {} },
      { store, db },
    );
    expect(reviews(db)).toHaveLength(1);
  });

  it("asks the model when enabled and the statements share three words, and flags what it says contradicts", async () => {
    const { db, store } = makeStore();
    const old = (
      await ingestFacts(
        { facts: [fact("The invoices service stores data in MySQL")], entities: [], scope, provenance: {} },
        { store, db },
      )
    ).outcomes[0]!.memoryId!;
    const llm = new FakeLlm({
      fallback: (request) =>
        request.jsonSchema?.name === "contradiction_check"
          ? { json: { contradicts: true, confidence: 0.9, reason: "MySQL was replaced by Postgres" } }
          : answer({ action: "ADD", reason: "new store" }),
    });
    const result = await ingestFacts(
      { facts: [fact("The invoices service stores data in Postgres")], entities: [], scope, provenance: {} },
      { store, db, llm, config: { semantic: { enabled: true, timeoutMs: 5_000 } } },
    );
    expect(llm.calls.map((c) => c.jsonSchema?.name).sort()).toEqual(["contradiction_check", "fact_decisions"]);
    expect(result.outcomes[0]).toMatchObject({ status: "created", reviewNeeded: true });
    expect(reviews(db)).toEqual([
      {
        memory_id: old,
        related_id: result.outcomes[0]!.memoryId,
        proposed_content: null,
        detector: "semantic",
        reason: "MySQL was replaced by Postgres",
      },
    ]);
  });

  it("treats a semantic check that outlives its timeout as no contradiction, warns, and still writes", async () => {
    const { db, store } = makeStore();
    await ingestFacts(
      { facts: [fact("The invoices service stores data in MySQL")], entities: [], scope, provenance: {} },
      { store, db },
    );
    let aborted = false;
    const llm = new FakeLlm({
      fallback: (request) =>
        request.jsonSchema?.name === "contradiction_check"
          ? new Promise(() => {
              request.signal?.addEventListener("abort", () => {
                aborted = true;
              });
            })
          : answer({ action: "ADD", reason: "new store" }),
    });
    const result = await ingestFacts(
      { facts: [fact("The invoices service stores data in Postgres")], entities: [], scope, provenance: {} },
      { store, db, llm, config: { semantic: { enabled: true, timeoutMs: 50 } } },
    );
    expect(result.outcomes[0]).toMatchObject({ status: "created" });
    expect(result.outcomes[0]?.reviewNeeded).toBeUndefined();
    expect(result.warnings.join("\n")).toContain("no answer within 50 ms");
    expect(aborted).toBe(true);
    expect(reviews(db)).toEqual([]);
  });
});

describe("parseDecision", () => {
  it("rejects unknown actions, empty reasons and missing targets", () => {
    expect(parseDecision('{"action":"MERGE","reason":"x"}', [1])).toEqual({ problem: "unknown action MERGE" });
    expect(parseDecision('{"action":"ADD","reason":" "}', [1])).toEqual({ problem: "empty reason" });
    expect(parseDecision('{"action":"UPDATE","reason":"r"}', [1])).toMatchObject({
      problem: expect.stringContaining("not a candidate"),
    });
    expect(parseDecision('{"action":"none","reason":"same","confidence":3}', [])).toEqual({
      decision: { action: "NONE", confidence: 1, reason: "same", decidedBy: "llm" },
    });
    // NONE may name the candidate that says it already; an id that is no candidate is left out.
    expect(parseDecision('{"action":"NONE","targetId":4,"reason":"same","confidence":1}', [4])).toEqual({
      decision: { action: "NONE", targetId: 4, confidence: 1, reason: "same", decidedBy: "llm" },
    });
    expect(parseDecision('{"action":"NONE","targetId":9,"reason":"same","confidence":1}', [4])).toEqual({
      decision: { action: "NONE", confidence: 1, reason: "same", decidedBy: "llm" },
    });
  });
});
