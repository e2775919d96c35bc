import { describe, expect, it } from "vitest";
import { ingestStage1Facts } from "../../src/pipeline/facts/stage1Facts.js";
import type { Stage1Output } from "../../src/pipeline/phase1/types.js";
import { addSession } from "../helpers/store.js";
import { makeStore } from "../memory/storeFixture.js";

const PROJECT = "git:github.com/acme/api";

function stage1(sessionId: string, facts: Stage1Output["facts"]): Stage1Output {
  return {
    sessionId,
    projectKey: PROJECT,
    cwd: "/work/api",
    agent: "codex",
    sourceUpdatedAt: 1,
    itemFrom: null,
    itemTo: null,
    generator: "offline",
    generatedAt: 1,
    usageCount: 0,
    lastUsage: null,
    selectedForPhase2: false,
    selectedForPhase2SourceUpdatedAt: null,
    rolloutSummary: "",
    rolloutSlug: "s",
    rawMemory: "",
    entities: [],
    facts,
  };
}

describe("recall --expand evidence of phase-1 facts", () => {
  it("returns the cited items of the fact's own session, for every session of the store", async () => {
    const { db, store } = makeStore();
    const clock = () => 1_700_000_000_000;
    const topics = ["webpack config", "postgres pool", "redis eviction"];
    for (const [n, topic] of topics.entries()) {
      addSession(store.storage, clock, {
        id: `s${n + 1}`,
        updatedAt: 1_700_000_000_000 + n,
        projectKey: PROJECT,
        items: [
          { role: "user", text: `session ${n + 1}: question about the ${topic}` },
          { role: "assistant", text: `session ${n + 1}: looking at the ${topic}` },
          { role: "user", text: `session ${n + 1}: the ${topic} answer is settled` },
          { role: "assistant", text: `session ${n + 1}: noted the ${topic}` },
        ],
      });
    }
    // The extractor cites the store-wide ids of the items it saw (renderSession's entry ids).
    for (const [n, topic] of topics.entries()) {
      const sessionId = `s${n + 1}`;
      const ids = store.storage.items.list(sessionId).map((item) => item.id);
      expect(ids[0]).toBe(n * 4 + 1);
      await ingestStage1Facts(
        stage1(sessionId, [
          {
            content: `The ${topic} is tuned for production`,
            type: "fact",
            confidence: 0.9,
            evidence: [ids[2]!, ids[3]!],
          },
        ]),
        { store, db, llm: null, now: clock },
      );
    }
    const response = await store.recall({ query: "redis eviction tuned", scopes: [PROJECT], expand: true });
    const top = response.results[0]!;
    expect(top.content).toBe("The redis eviction is tuned for production");
    expect(top.provenance).toEqual({ sessionId: "s3", itemFrom: 3, itemTo: 4 });
    expect(top.evidence).toEqual([
      { seq: 3, role: "user", text: "session 3: the redis eviction answer is settled" },
      { seq: 4, role: "assistant", text: "session 3: noted the redis eviction" },
    ]);
    const second = (await store.recall({ query: "postgres pool tuned", scopes: [PROJECT], expand: true })).results[0]!;
    expect(second.evidence?.map((item) => item.text)).toEqual([
      "session 2: the postgres pool answer is settled",
      "session 2: noted the postgres pool",
    ]);
  });

  it("drops evidence that is not an item of the fact's session instead of pointing elsewhere", async () => {
    const { db, store } = makeStore();
    const clock = () => 1_700_000_000_000;
    for (const id of ["s1", "s2"])
      addSession(store.storage, clock, { id, updatedAt: 1_700_000_000_000, projectKey: PROJECT });
    const otherSession = store.storage.items.list("s1").map((item) => item.id);
    await ingestStage1Facts(
      stage1("s2", [
        { content: "Deploys run from the release branch", type: "fact", confidence: 0.9, evidence: otherSession },
      ]),
      { store, db, llm: null, now: clock },
    );
    const top = (await store.recall({ query: "deploys release branch", scopes: [PROJECT], expand: true })).results[0]!;
    expect(top.provenance).toEqual({ sessionId: "s2" });
    expect(top.evidence).toBeUndefined();
  });
});
