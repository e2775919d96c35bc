import { describe, expect, it } from "vitest";
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
  });
});
