import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { formatCycle, runPipelineCycle } from "../../src/workers/runPipeline.js";
import { fakeModelConfig } from "../helpers/fakeChatModel.js";
import {
  type LoopbackReply,
  type LoopbackServer,
  type RecordedRequest,
  startLoopbackServer,
} from "../helpers/loopbackServer.js";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

const DAY = 86_400_000;

const FACTS = [
  "the Orion api listens on port 8080 locally",
  "the Orion api returns errors as problem+json",
  "deploys of Orion go out every friday from the main branch",
  "we decided to use pnpm workspaces in Orion",
];

/** The entities of a classify request, as the prompt quotes them (one JSON line between the markers). */
function askedEntities(prompt: string): { e: number; facts: { i: number; fact: string }[] }[] {
  const line = prompt.split("\n").find((l) => l.startsWith("{"));
  return line === undefined
    ? []
    : (JSON.parse(line) as { entities: { e: number; facts: { i: number; fact: string }[] }[] }).entities;
}

/** The fake model: files api facts under "interfaces", the rest under "deployment", and types each entity. */
function classify(prompt: string): string {
  const entities = askedEntities(prompt).map(({ e, facts }) => ({
    e,
    entityType: "project",
    facts: facts.map(({ i, fact }) => ({
      i,
      aspect: fact.includes("api") ? "interfaces" : "deployment",
      kind: "attribute",
      new: true,
    })),
  }));
  return JSON.stringify({ entities });
}

describe("structural classification through Cairn and a real OpenAI-compatible wire format", () => {
  let server: LoopbackServer;
  let answer: (prompt: string) => string = classify;
  beforeAll(async () => {
    server = await startLoopbackServer(reply);
  });
  function reply(request: RecordedRequest): LoopbackReply {
    if (request.path === "/v1/models") return { body: { object: "list", data: [{ id: "fake-model" }] } };
    const body = request.body as { messages: { role: string; content: string }[] };
    const prompt = body.messages.find((m) => m.role === "user")?.content ?? "";
    const content = answer(prompt);
    return { body: { choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }], usage: {} } };
  }
  afterAll(() => server.close());

  const calls = () => server.requests.filter((r) => r.path === "/v1/chat/completions").length;

  function open(home: string, clock: () => number) {
    return new Cairn({
      home,
      env: { HOME: home },
      clock,
      config: {
        ...fakeModelConfig(server),
      },
    });
  }

  it("one request for an entity's facts; recall confirms the aspects it hits; stale aspects decay; status counts", async () => {
    const home = tempDir("cairn-structural-");
    let now = Date.UTC(2026, 5, 1);
    const cairn = open(home, () => now);
    try {
      await cairn.remember(FACTS.map((content) => ({ content, scope: "global" })));
      const before = calls();
      const report = await cairn.classifyStructure();
      expect(report).toMatchObject({
        outcome: "completed",
        calls: 1,
        classified: 4,
        aspectsCreated: 2,
        typesInferred: 1,
      });
      expect(calls() - before).toBe(1);
      expect(cairn.status().structural).toMatchObject({ aspects: 2, classified: 4, waiting: 0 });
      expect(cairn.status().structural.lastRun).toMatchObject({ outcome: "completed", classified: 4 });
      const entity = cairn.storage.db.prepare("SELECT entity_type AS type FROM entities WHERE name = 'Orion'").get();
      expect(entity).toEqual({ type: "project" });

      const weight = (name: string) =>
        (cairn.storage.db.prepare("SELECT weight FROM entity_aspects WHERE name = ?").get(name) as { weight: number })
          .weight;
      const found = await cairn.recall({ query: "which port does the Orion api listen on", scope: "global" });
      const apiHits = found.results.filter((r) => r.content.includes("api")).length;
      expect(apiHits).toBeGreaterThan(0);
      // Default feedbackDelta 0.05 per confirming memory; capped at maxWeight 3.
      expect(weight("interfaces")).toBeCloseTo(1 + 0.05 * apiHits);
      expect(cairn.status().structural.lastFeedback).toMatchObject({ at: now });

      // An internal lookup (countUsage false) is not use and confirms nothing.
      const held = weight("interfaces");
      await cairn.memories.recall({ query: "Orion api", scopes: ["global"], countUsage: false });
      expect(weight("interfaces")).toBe(held);

      now += 31 * DAY;
      const later = await cairn.classifyStructure();
      expect(later).toMatchObject({ calls: 0, decayed: 2 });
      expect(weight("interfaces")).toBeCloseTo(held - 0.05);
      expect(cairn.status().structural.lastDecay).toMatchObject({ at: now, aspects: 2 });
    } finally {
      cairn.close();
    }
  });

  it("cairn extract --dry-run announces the classification calls, and the pass makes that many: ceil(N / 20)", async () => {
    // A server of its own: the CLI runs block this process, and a kept-alive connection to the shared
    // server may be closed by then (a probe on it would read the model as unavailable).
    const own = await startLoopbackServer(reply);
    const calls = () => own.requests.filter((r) => r.path === "/v1/chat/completions").length;
    const home = tempDir("cairn-structural-cost-");
    const cairn = new Cairn({ home: `${home}/cairn`, env: { HOME: home }, config: fakeModelConfig(own) });
    try {
      // 45 facts naming a different tool each, as one long session's facts do.
      await cairn.remember(
        Array.from({ length: 45 }, (_, i) => ({ content: `run \`tool-${i}\` before pushing`, scope: "global" })),
      );
      const before = calls();
      const env = {
        CAIRN_HOME: `${home}/cairn`,
        HOME: home,
        CAIRN_LLM_PROVIDER: "openai",
        CAIRN_LLM_BASE_URL: `${own.url}/v1`,
        CAIRN_LLM_MODEL: "fake-model",
        CAIRN_LLM_API_KEY: "k",
      };
      const dry = runCli(["extract", "--dry-run"], { env });
      expect(dry.stderr).toBe("");
      expect(dry.stdout).toMatch(
        /structural classification with .*fake-model.*: 3 model calls for the 45 entities waiting \(45 entity mentions waiting, up to 20 entities per call\)/,
      );
      const json = runCli(["extract", "--dry-run", "--json"], { env });
      expect(JSON.parse(json.stdout).structural).toMatchObject({ entities: 45, mentions: 45, calls: 3, passes: 1 });
      expect(calls() - before).toBe(0);

      const report = await cairn.classifyStructure();
      expect(report).toMatchObject({ calls: 3, classified: 45, failed: 0 });
      expect(calls() - before).toBe(3);
      const offline = runCli(["extract", "--dry-run"], { env: { ...env, CAIRN_LLM_PROVIDER: "offline" } });
      expect(offline.stdout).toContain("structural classification: 0 model calls, no model configured");
    } finally {
      cairn.close();
      await own.close();
    }
  });

  it("an unusable answer leaves the facts waiting; the cycle's run report says so", async () => {
    const home = tempDir("cairn-structural-bad-");
    const cairn = open(home, () => Date.UTC(2026, 5, 1));
    answer = () => "I cannot help with that.";
    try {
      await cairn.remember(FACTS.slice(0, 2).map((content) => ({ content, scope: "global" })));
      const report = await cairn.classifyStructure();
      expect(report).toMatchObject({ outcome: "completed", failed: 1, classified: 0, waiting: 2 });
      expect(cairn.storage.db.prepare("SELECT count(*) AS n FROM entity_aspects").get()).toEqual({ n: 0 });
      expect(cairn.status().failedJobs).toEqual([
        expect.objectContaining({ kind: "structural_classify", status: "failed" }),
      ]);
    } finally {
      answer = classify;
      cairn.close();
    }
  });
});

describe("structural classification offline", () => {
  it("cairn run classifies nothing and reports what waits; status says why", async () => {
    const home = tempDir("cairn-structural-offline-");
    const cairn = new Cairn({ home, env: { HOME: home }, config: { "llm.provider": "offline" } });
    try {
      await cairn.remember({ content: "we decided to use pnpm workspaces in Orion", scope: "global" });
      const { structural } = await cairn.run({ scan: { only: [] } });
      expect(structural).toMatchObject({ outcome: "skipped", reason: "no model configured", waiting: 1 });
      expect(cairn.status().structural).toMatchObject({
        enabled: true,
        aspects: 0,
        waiting: 1,
        lastRun: { outcome: "skipped", reason: "no model configured", waiting: 1 },
      });
      const background = formatCycle(await runPipelineCycle(cairn));
      expect(background).toContain("structural skipped: no model configured (1 waiting)");
    } finally {
      cairn.close();
    }
  });
});

describe("cairn run and cairn status (CLI), offline", () => {
  it("say that structural classification was skipped and how many facts wait", () => {
    const home = tempDir("cairn-structural-cli-");
    const env = { CAIRN_HOME: `${home}/cairn`, HOME: home };
    expect(
      runCli(["remember", "we decided to use pnpm workspaces in Orion", "--scope", "global"], { env }).status,
    ).toBe(0);
    const run = runCli(["run"], { env });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("structural classification skipped: no model configured (1 entity mention waiting)");
    const status = runCli(["status"], { env });
    expect(status.stdout).toMatch(
      /structural {3}0 aspects, 0 classified, 1 entity mention waiting; last pass .* skipped: no model configured/,
    );
  });
});
