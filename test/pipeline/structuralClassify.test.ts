import type { Database } from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.js";
import { persistGraph } from "../../src/pipeline/facts/persistGraph.js";
import { classifyStructure } from "../../src/pipeline/structural/classifyStructure.js";
import { describeStructural } from "../../src/pipeline/structural/describeStructural.js";
import { planStructuralCalls } from "../../src/pipeline/structural/groupForCalls.js";
import { parseClassification } from "../../src/pipeline/structural/parseClassification.js";
import type { StructuralDeps } from "../../src/pipeline/structural/structuralDeps.js";
import type { LlmRequest } from "../../src/providers/llm/types.js";
import { STRUCTURAL_KIND } from "../../src/store/queue/jobKinds.js";
import { JobQueue } from "../../src/store/queue/jobQueue.js";
import { FakeLlm, providerError } from "../helpers/fakeLlm.js";
import { makeStore } from "../memory/storeFixture.js";

const DAY = 86_400_000;
const scope = "orion";

/** Facts that each mention one entity, "Orion" (typed `extracted` by the inline linker). */
const ORION_FACTS = [
  "the Orion api listens on port 8080 locally",
  "the Orion test suite runs with vitest in watch mode",
  "deploys of Orion go out every friday from the main branch",
  "we decided to use pnpm workspaces in Orion",
  "run the Orion migrations before starting the server",
];

function setup(options: { llm?: FakeLlm | null; structural?: Record<string, unknown>; frozen?: boolean } = {}) {
  const { db, store } = makeStore();
  let now = 1_700_000_000_000;
  const clock = () => now;
  const jobs = new JobQueue(db, { clock, random: () => 0.5, backoffBaseMs: 60_000 });
  const llm = options.llm === undefined ? new FakeLlm() : options.llm;
  const config = configSchema().parse({ pipeline: { structural: options.structural ?? {} } }).pipeline.structural;
  const deps: StructuralDeps = {
    db,
    aspects: store.storage.aspects,
    jobs,
    meta: store.storage.meta,
    llm,
    config,
    frozen: options.frozen ?? false,
    concurrency: 2,
    leaseMs: 60_000,
    clock,
  };
  return { db, store, jobs, llm, deps, advance: (ms: number) => (now += ms) };
}

/** One entity of a classify request, as the prompt quotes it. */
interface Asked {
  e: number;
  entity: { name: string; type: string };
  answerType?: string;
  facts: { i: number; fact: string }[];
}

/** The entities of a classify request (the quoted data line). */
function entitiesOf(request: LlmRequest): Asked[] {
  const line = request.prompt.split("\n").find((l) => l.startsWith("{"))!;
  return (JSON.parse(line) as { entities: Asked[] }).entities;
}

/** The facts of a one-entity request. */
function factsOf(request: LlmRequest): { i: number; fact: string }[] {
  return entitiesOf(request).flatMap((entity) => entity.facts);
}

/** Files one entity's facts by a word in each. */
function fileFacts(facts: { i: number; fact: string }[]) {
  return facts.map(({ i, fact }) => {
    const aspect = /port|api/.test(fact) ? "interfaces" : /test/.test(fact) ? "testing" : "deployment";
    return { i, aspect, kind: /decided|before/.test(fact) ? "constraint" : "attribute", new: true };
  });
}

/** A model that files each fact by a word in it and calls every entity a project. */
function classifier(request: LlmRequest) {
  return {
    json: {
      entities: entitiesOf(request).map(({ e, facts }) => ({ e, entityType: "project", facts: fileFacts(facts) })),
    },
  };
}

/** Every row the classifier may change, to prove a bad answer changed none. */
function snapshot(db: Database): string {
  return JSON.stringify([
    db.prepare("SELECT * FROM memory_entity_mentions ORDER BY rowid").all(),
    db.prepare("SELECT * FROM entity_aspects ORDER BY id").all(),
    db.prepare("SELECT * FROM entities ORDER BY id").all(),
  ]);
}

function mentions(db: Database) {
  return db
    .prepare(
      `SELECT m.content, me.kind, a.name AS aspect FROM memory_entity_mentions me JOIN memories m ON m.id = me.memory_id
         LEFT JOIN entity_aspects a ON a.id = me.aspect_id ORDER BY me.rowid`,
    )
    .all() as { content: string; kind: string; aspect: string | null }[];
}

const entityType = (db: Database) =>
  (db.prepare("SELECT entity_type AS t FROM entities WHERE canonical_name = 'orion'").get() as { t: string }).t;

describe("parseClassification", () => {
  it("reads the object and the seed's bare list, ignores a non-canonical type, and lists facts left out", () => {
    const object = parseClassification(
      '{"entityType": "Project", "facts": [{"i": 0, "aspect": " Test  Runner ", "kind": "CONSTRAINT", "new": true}]}',
      2,
    );
    expect(object).toEqual({
      facts: [{ index: 0, aspect: "Test Runner", kind: "constraint" }],
      entityType: "project",
      missing: [1],
    });
    expect(parseClassification('[{"i": 1, "aspect": "usage", "kind": "attribute", "new": false}]', 2)).toEqual({
      facts: [{ index: 1, aspect: "usage", kind: "attribute" }],
      missing: [0],
    });
    const database = parseClassification(
      '{"entityType": "database", "facts": [{"i": 0, "aspect": "x", "kind": "attribute"}]}',
      1,
    );
    expect(database).not.toHaveProperty("entityType");
  });

  it("rejects the whole answer when any item is malformed", () => {
    const item = (fields: Record<string, unknown>) =>
      JSON.stringify({ facts: [{ i: 0, aspect: "usage", kind: "attribute", new: false }, fields] });
    expect(parseClassification("Sure, here you go", 2)).toEqual({ problem: "the answer is not JSON" });
    expect(parseClassification('{"aspects": []}', 2)).toEqual({ problem: 'the answer has no "facts" list' });
    expect(parseClassification(item({ i: 5, aspect: "usage", kind: "attribute" }), 2)).toEqual({
      problem: "item 1: no fact numbered 5",
    });
    expect(parseClassification(item({ i: 0, aspect: "usage", kind: "attribute" }), 2)).toEqual({
      problem: "item 1: fact 0 is answered twice",
    });
    expect(parseClassification(item({ i: 1, aspect: "usage", kind: "rule" }), 2)).toEqual({
      problem: "item 1: unknown kind rule",
    });
    expect(parseClassification(item({ i: 1, aspect: " -- ", kind: "attribute" }), 2)).toEqual({
      problem: "item 1: no aspect named",
    });
    expect(parseClassification(item({ i: 1, aspect: "x ".repeat(40), kind: "attribute" }), 2)).toEqual({
      problem: "item 1: the aspect is a sentence, not a name",
    });
  });
});

describe("classifyStructure", () => {
  it("classifies every fact of an entity in one model call, upserts its aspects and infers its type", async () => {
    const { db, store, llm, deps } = setup();
    for (const content of ORION_FACTS) await store.remember({ content, scope });
    llm!.respondWith(classifier);

    const report = await classifyStructure(deps);
    expect(report).toMatchObject({
      outcome: "completed",
      enqueued: 1,
      entities: 1,
      classified: 5,
      aspectsCreated: 3,
      typesInferred: 1,
      calls: 1,
      failed: 0,
      waiting: 0,
    });
    expect(llm!.calls).toHaveLength(1);
    const call = llm!.lastCall!;
    expect(call.jsonSchema?.name).toBe("structural_classify");
    // The facts travel as data; the instructions name the suggestions and ask for the type.
    expect(call.system).not.toContain("vitest");
    expect(call.prompt).toContain('"suggestedAspects":["usage","configuration"');
    expect(entitiesOf(call)[0]).not.toHaveProperty("answerType");
    expect(factsOf(call).map((f) => f.fact)).toEqual(ORION_FACTS);
    expect(entityType(db)).toBe("project");
    expect(mentions(db)).toEqual([
      { content: ORION_FACTS[0], kind: "attribute", aspect: "interfaces" },
      { content: ORION_FACTS[1], kind: "attribute", aspect: "testing" },
      { content: ORION_FACTS[2], kind: "attribute", aspect: "deployment" },
      { content: ORION_FACTS[3], kind: "constraint", aspect: "deployment" },
      { content: ORION_FACTS[4], kind: "constraint", aspect: "deployment" },
    ]);
    expect(store.storage.aspects.counts()).toEqual({ aspects: 3, classified: 5, waiting: 0 });

    // Nothing waits: the next pass asks nothing.
    expect(await classifyStructure(deps)).toMatchObject({ enqueued: 0, calls: 0, waiting: 0 });
    expect(llm!.calls).toHaveLength(1);
  });

  it("splits an entity's facts into ceil(N / classifyBatchSize) calls, offering the aspects it already has", async () => {
    const { db, store, llm, deps } = setup({ structural: { classifyBatchSize: 2 } });
    for (const content of ORION_FACTS) await store.remember({ content, scope });
    llm!.respondWith(classifier);
    const report = await classifyStructure(deps);
    expect(report).toMatchObject({ calls: 3, classified: 5, entities: 1, waiting: 0 });
    expect(llm!.calls.map((c) => factsOf(c).length)).toEqual([2, 2, 1]);
    expect(llm!.calls[2]!.prompt).toContain('"existingAspects":["interfaces","testing","deployment"]');
    // The type was inferred by the first batch; the later ones are told it.
    expect(entitiesOf(llm!.calls[2]!)[0]).toMatchObject({ answerType: "project" });
    expect(llm!.calls[2]!.prompt).toContain('"suggestedAspects":["architecture","dependencies"');
    expect(db.prepare("SELECT count(*) AS n FROM entity_aspects").get()).toEqual({ n: 3 });

    // A new fact reopens the entity's finished job.
    await store.remember({ content: "the Orion api returns errors as problem+json", scope });
    expect(await classifyStructure(deps)).toMatchObject({ enqueued: 1, calls: 1, classified: 1, aspectsCreated: 0 });
  });

  it("packs the entities a session names into ceil(N / 20) calls, as many as the plan announces", async () => {
    const { store, llm, deps } = setup();
    // One memory per tool, as a long session's facts name a different command or file each.
    await store.remember(
      Array.from({ length: 45 }, (_, i) => ({ content: `run \`tool-${i}\` before pushing`, scope })),
    );
    const waiting = store.storage.aspects.entitiesAwaiting(1_000).map((entity) => entity.waiting);
    expect(planStructuralCalls(waiting, deps.config.classifyBatchSize)).toEqual({
      entities: 45,
      mentions: 45,
      calls: 3,
      passes: 1,
    });
    llm!.respondWith(classifier);
    const report = await classifyStructure(deps);
    expect(report).toMatchObject({ calls: 3, entities: 45, classified: 45, failed: 0, leftOut: 0, waiting: 0 });
    expect(llm!.calls.map((call) => entitiesOf(call).length)).toEqual([20, 20, 5]);
    // One set of instructions for the batch; each entity's type travels with it as data.
    expect(llm!.calls[0]!.system).not.toContain("tool-");
    expect(new Set(llm!.calls.map((call) => call.system)).size).toBe(1);
    expect(entitiesOf(llm!.calls[0]!)[0]).toMatchObject({
      answerType: "tool",
      suggestedAspects: ["usage", "configuration", "version", "limitations"],
    });
  });

  it("a malformed entry fails only its entity; an entity left out is asked again alone, then failed with the reason", async () => {
    const { db, store, llm, jobs, deps } = setup();
    await store.remember(
      ["alpha", "beta", "gamma"].map((name) => ({ content: `run \`${name}\` before pushing`, scope })),
    );
    // alpha answered, beta's entry malformed, gamma left out (again when asked alone).
    llm!.respondWith((request) => ({
      json: {
        entities: entitiesOf(request)
          .filter((asked) => asked.entity.name !== "gamma")
          .map(({ e, entity }) => ({
            e,
            entityType: "tool",
            facts: [{ i: 0, aspect: entity.name === "beta" ? "x ".repeat(40) : "usage", kind: "attribute", new: true }],
          })),
      },
    }));
    const report = await classifyStructure(deps);
    expect(report).toMatchObject({ calls: 2, classified: 1, failed: 2, leftOut: 1, waiting: 2 });
    expect(entitiesOf(llm!.calls[1]!).map((asked) => asked.entity.name)).toEqual(["gamma"]);
    expect(report.errors.map((failure) => failure.error).sort()).toEqual([
      "entity beta: item 0: the aspect is a sentence, not a name",
      "entity gamma: the answer left the entity out",
    ]);
    expect(mentions(db).map((m) => m.aspect)).toEqual(["usage", null, null]);
    expect(
      jobs
        .list({ kind: STRUCTURAL_KIND })
        .map((job) => job.status)
        .sort(),
    ).toEqual(["failed", "failed", "succeeded"]);
  });

  it("an entity left out of a batch and answered alone is classified in the same pass", async () => {
    const { db, store, llm, deps } = setup();
    await store.remember(["alpha", "beta"].map((name) => ({ content: `run \`${name}\` before pushing`, scope })));
    // The batched answer leaves alpha out; asked alone, it is answered.
    llm!.respondWith((request) => {
      const asked = entitiesOf(request);
      const kept = asked.length > 1 ? asked.filter((entry) => entry.entity.name !== "alpha") : asked;
      return {
        json: {
          entities: kept.map(({ e }) => ({
            e,
            entityType: "tool",
            facts: [{ i: 0, aspect: "usage", kind: "attribute", new: true }],
          })),
        },
      };
    });
    expect(await classifyStructure(deps)).toMatchObject({ calls: 2, classified: 2, failed: 0, leftOut: 1, waiting: 0 });
    expect(mentions(db).map((m) => m.aspect)).toEqual(["usage", "usage"]);
  });

  it("gives a hub entity at most ten calls per pass and continues it in the next", async () => {
    const { store, llm, jobs, deps } = setup({ structural: { classifyBatchSize: 1 } });
    await store.remember(Array.from({ length: 12 }, (_, i) => ({ content: `the Orion flag ${i} is on`, scope })));
    llm!.respondWith(classifier);
    expect(await classifyStructure(deps)).toMatchObject({ calls: 10, classified: 10, waiting: 2, failed: 0 });
    expect(jobs.list({ kind: STRUCTURAL_KIND })[0]).toMatchObject({ status: "pending", attempts: 0 });
    expect(await classifyStructure(deps)).toMatchObject({ calls: 2, classified: 2, waiting: 0 });
  });

  it("fails the job on an unusable answer without changing a row, and retries it by the queue's rules", async () => {
    const { db, store, llm, jobs, deps, advance } = setup();
    for (const content of ORION_FACTS.slice(0, 3)) await store.remember({ content, scope });
    const before = snapshot(db);
    const outOfRange = {
      json: { entityType: "project", facts: [{ i: 9, aspect: "x", kind: "attribute", new: true }] },
    };
    llm!.enqueue("I would file these under deployment.", outOfRange);

    const first = await classifyStructure(deps);
    expect(first).toMatchObject({ failed: 1, classified: 0, waiting: 3 });
    expect(first.errors[0]!.error).toContain("the answer is not JSON");
    expect(snapshot(db)).toBe(before);
    expect(jobs.get(STRUCTURAL_KIND, first.errors[0]!.entityId.toString())).toMatchObject({ status: "failed" });

    // Not due yet: backoff.
    expect(await classifyStructure(deps)).toMatchObject({ calls: 0, waiting: 3 });
    advance(DAY);
    const second = await classifyStructure(deps);
    expect(second).toMatchObject({ failed: 1, calls: 1 });
    expect(second.errors[0]!.error).toContain("no fact numbered 9");
    expect(snapshot(db)).toBe(before);

    advance(DAY);
    llm!.respondWith(classifier);
    expect(await classifyStructure(deps)).toMatchObject({ failed: 0, classified: 3, waiting: 0 });
    expect(entityType(db)).toBe("project");
  });

  it("leaves an entity untyped when the model cannot tell, so a later pass asks again", async () => {
    const { db, store, llm, deps } = setup();
    await store.remember({ content: ORION_FACTS[0]!, scope });
    llm!.respondWith({
      json: { entityType: "unknown", facts: [{ i: 0, aspect: "interfaces", kind: "attribute", new: true }] },
    });
    expect(await classifyStructure(deps)).toMatchObject({ classified: 1, typesInferred: 0 });
    expect(entityType(db)).toBe("extracted");
  });

  it("keeps what a partial answer classified and leaves the rest waiting for the retry", async () => {
    const { db, store, llm, deps, advance } = setup();
    for (const content of ORION_FACTS.slice(0, 3)) await store.remember({ content, scope });
    llm!.enqueue({
      json: { entityType: "project", facts: [{ i: 1, aspect: "testing", kind: "attribute", new: true }] },
    });
    const report = await classifyStructure(deps);
    expect(report).toMatchObject({ classified: 1, failed: 1, waiting: 2 });
    expect(report.errors[0]!.error).toContain("left facts 0, 2 unclassified");
    expect(mentions(db).map((m) => m.aspect)).toEqual([null, "testing", null]);
    advance(DAY);
    llm!.respondWith(classifier);
    expect(await classifyStructure(deps)).toMatchObject({ classified: 2, calls: 1, waiting: 0 });
  });

  it("retries a provider failure later and keeps a decision a constraint whatever the model says", async () => {
    const { db, store, llm, deps, advance } = setup();
    await store.remember({ content: "we decided to use pnpm workspaces in Orion", scope });
    llm!.enqueue(providerError("http", { statusCode: 503 }));
    expect(await classifyStructure(deps)).toMatchObject({ failed: 1, waiting: 1 });
    advance(DAY);
    llm!.respondWith({
      json: { entityType: "project", facts: [{ i: 0, aspect: "dependencies", kind: "attribute", new: true }] },
    });
    expect(await classifyStructure(deps)).toMatchObject({ classified: 1, waiting: 0 });
    expect(mentions(db)).toEqual([
      { content: "we decided to use pnpm workspaces in Orion", kind: "constraint", aspect: "dependencies" },
    ]);
  });

  it("offline: classifies nothing, says how many facts wait, and the inline linker still protects decisions", async () => {
    const { db, store, deps } = setup({ llm: null });
    const decision = await store.remember({ content: "we decided to use pnpm workspaces in Orion", scope });
    const fact = await store.remember({ content: "the Orion api listens on port 8080 locally", scope });
    const report = await classifyStructure(deps);
    expect(report).toMatchObject({ outcome: "skipped", reason: "no model configured", waiting: 2, calls: 0 });
    expect(describeStructural(report)).toBe(
      "structural classification skipped: no model configured (2 entity mentions waiting)",
    );
    expect(db.prepare("SELECT count(*) AS n FROM jobs WHERE kind = ?").get(STRUCTURAL_KIND)).toEqual({ n: 0 });
    // Decision auto-protection (seed 004): constraint and importance 0.85 for decision language, 0.5 otherwise.
    expect(store.get(decision.id!)).toMatchObject({ importance: 0.85, type: "decision" });
    expect(store.get(fact.id!)).toMatchObject({ importance: 0.5, type: "fact" });
    expect(mentions(db).map((m) => [m.kind, m.aspect])).toEqual([
      ["constraint", null],
      ["attribute", null],
    ]);
    expect(store.storage.meta.get("structural.lastRun")).toMatchObject({ outcome: "skipped", waiting: 2 });
  });

  it("a decision's mentions written by the fact stage's graph are constraints too", async () => {
    const { db, store } = setup({ llm: null });
    const decision = await store.remember({ content: "we switched to vitest from jest for the billing tests", scope });
    const plain = await store.remember({ content: "the billing tests take four minutes", scope });
    for (const memoryId of [decision.id!, plain.id!]) {
      persistGraph({
        db,
        graph: store.storage.graph,
        triples: [{ source: "billing", relationship: "tested with", target: "vitest", confidence: 0.9 }],
        memoryIds: [memoryId],
        now: 1,
      });
    }
    const kinds = db
      .prepare("SELECT memory_id AS id, kind FROM memory_entity_mentions ORDER BY memory_id, entity_id")
      .all() as { id: number; kind: string }[];
    expect(kinds.filter((k) => k.id === decision.id).map((k) => k.kind)).toEqual(["constraint", "constraint"]);
    expect(kinds.filter((k) => k.id === plain.id).map((k) => k.kind)).toEqual(["attribute", "attribute"]);
  });

  it("does nothing when disabled or frozen, and says so", async () => {
    const off = setup({ structural: { enabled: false } });
    await off.store.remember({ content: ORION_FACTS[0]!, scope });
    const report = await classifyStructure(off.deps);
    expect(report).toMatchObject({ outcome: "skipped", reason: "pipeline.structural.enabled is false", waiting: 1 });
    expect(describeStructural(report)).toBeUndefined();
    expect(off.llm!.calls).toHaveLength(0);
    const frozen = setup({ frozen: true });
    await frozen.store.remember({ content: ORION_FACTS[0]!, scope });
    expect(await classifyStructure(frozen.deps)).toMatchObject({
      outcome: "skipped",
      reason: "pipeline.mutationsFrozen is true",
    });
    expect(frozen.llm!.calls).toHaveLength(0);
  });

  it("waits for an unavailable provider without spending an attempt", async () => {
    const { store, llm, jobs, deps } = setup();
    await store.remember({ content: ORION_FACTS[0]!, scope });
    llm!.isAvailable = false;
    const report = await classifyStructure(deps);
    expect(report).toMatchObject({ outcome: "skipped", reason: "fake is unavailable", waiting: 1 });
    expect(jobs.list({ kind: STRUCTURAL_KIND })[0]).toMatchObject({ status: "pending", attempts: 0 });
  });
});

describe("aspect feedback, decay and siblings", () => {
  async function classified() {
    const context = setup();
    const ids: number[] = [];
    for (const content of ORION_FACTS) ids.push((await context.store.remember({ content, scope })).id!);
    context.llm!.respondWith(classifier);
    await classifyStructure(context.deps);
    const weight = (name: string) =>
      (context.db.prepare("SELECT weight FROM entity_aspects WHERE name = ?").get(name) as { weight: number }).weight;
    return { ...context, ids, weight };
  }

  it("raises a confirmed aspect by delta x confirmations, never above maxWeight", async () => {
    const { store, ids, weight } = await classified();
    const weighting = { delta: 0.1, minWeight: 0.1, maxWeight: 1.5 };
    // Three deployment memories and one testing memory recalled together.
    const confirmations = store.storage.aspects.confirmationsOf([ids[2]!, ids[3]!, ids[4]!, ids[1]!]);
    expect([...confirmations.values()].sort()).toEqual([1, 3]);
    store.storage.aspects.confirm(confirmations, weighting, 1);
    expect(weight("deployment")).toBeCloseTo(1.3);
    expect(weight("testing")).toBeCloseTo(1.1);
    expect(weight("interfaces")).toBe(1);
    store.storage.aspects.confirm(store.storage.aspects.confirmationsOf([ids[2]!, ids[3]!, ids[4]!]), weighting, 2);
    expect(weight("deployment")).toBe(1.5);
  });

  it("lowers an aspect unconfirmed for staleDays by decayRate, once per stale window, floored at minWeight", async () => {
    const { store, deps, ids, weight, advance } = await classified();
    const decay = { staleMs: 30 * DAY, rate: 0.5, minWeight: 0.25 };
    expect(store.storage.aspects.decay(decay, deps.clock() + 10 * DAY)).toBe(0);
    const later = advance(31 * DAY);
    const testing = store.storage.aspects.confirmationsOf([ids[1]!]);
    store.storage.aspects.confirm(testing, { delta: 0.1, minWeight: 0.25, maxWeight: 3 }, later);
    // testing was just confirmed; the other two are stale.
    expect(store.storage.aspects.decay(decay, later)).toBe(2);
    expect(weight("deployment")).toBe(0.5);
    expect(weight("testing")).toBeCloseTo(1.1);
    // Decayed just now: not stale again until another window passes.
    expect(store.storage.aspects.decay(decay, later + DAY)).toBe(0);
    expect(store.storage.aspects.decay(decay, later + 31 * DAY)).toBe(3);
    expect(weight("deployment")).toBe(0.25);
  });

  it("the cycle step decays stale aspects with the configured rate", async () => {
    const { deps, weight, advance } = await classified();
    advance(31 * DAY);
    const report = await classifyStructure(deps);
    expect(report.decayed).toBe(3);
    expect(weight("testing")).toBeCloseTo(0.95);
    expect(describeStructural(report)).toContain("3 stale aspects decayed");
  });

  it("siblingsOf: live memories on the same entity and aspect, newest first", async () => {
    const { store, ids } = await classified();
    expect(store.storage.graph.siblingsOf(ids[2]!)).toEqual([ids[4]!, ids[3]!]);
    expect(store.storage.graph.siblingsOf(ids[0]!)).toEqual([]);
    store.forget(ids[4]!);
    expect(store.storage.graph.siblingsOf(ids[2]!)).toEqual([ids[3]!]);
  });
});
