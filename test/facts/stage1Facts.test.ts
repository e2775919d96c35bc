import { describe, expect, it } from "vitest";
import { ingestStage1Facts } from "../../src/pipeline/facts/stage1Facts.js";
import type { Stage1Output } from "../../src/pipeline/phase1/types.js";
import { DAY_MS } from "../../src/util/clock.js";
import { addSession } from "../helpers/store.js";
import { makeStore } from "../memory/storeFixture.js";

const PROJECT = "git:github.com/acme/api";

function output(facts: Array<[string, Stage1Output["facts"][number]["type"]]>): Stage1Output {
  return {
    sessionId: "s1",
    projectKey: PROJECT,
    cwd: "/work/api",
    agent: "codex",
    sourceUpdatedAt: 1,
    itemFrom: 1,
    itemTo: 4,
    generator: "offline",
    generatedAt: 1,
    usageCount: 0,
    lastUsage: null,
    selectedForPhase2: false,
    selectedForPhase2SourceUpdatedAt: null,
    rolloutSummary: "Moved the tests to Vitest.",
    rolloutSlug: "vitest",
    rawMemory: "",
    entities: [],
    facts: facts.map(([content, type]) => ({ content, type, confidence: 0.9, evidence: [2] })),
  };
}

describe("stage-1 facts into the fact store", () => {
  it("puts only habits stated for all projects in the global scope", async () => {
    const { db, store } = makeStore();
    await ingestStage1Facts(
      output([
        ["We deploy from the release branch.", "preference"],
        ["Always rebase feature branches before merging.", "preference"],
        ["In all my projects I use conventional commit messages.", "preference"],
      ]),
      { store, db, llm: null, now: () => 1_700_000_000_000 },
    );
    expect(store.counts().byScope).toEqual({ global: 1, [PROJECT]: 2 });
  });

  it("scopes each fact as the model said, whatever its wording, and counts what the threshold keeps out", async () => {
    const { db, store } = makeStore();
    const session = output([
      ["The user always wants invalid themes to fail soft.", "preference"],
      ["Answer in short paragraphs without headings.", "preference"],
      ["In all my projects I use conventional commit messages.", "preference"],
      ["The agent said the parser fix passes its tests.", "fact"],
    ]);
    session.facts[0]!.scope = "project";
    session.facts[1]!.scope = "global";
    // No scope (an answer stored before the field): the wording decides, as before.
    session.facts[3]!.confidence = 0.6;
    const result = await ingestStage1Facts(session, {
      store,
      db,
      llm: null,
      now: () => 1_700_000_000_000,
      config: { minConfidence: 0.7 },
    });
    const scopeOf = db.prepare("SELECT scope FROM memories WHERE content = ?");
    const scopes = session.facts.slice(0, 3).map((fact) => (scopeOf.get(fact.content) as { scope: string }).scope);
    expect(scopes).toEqual([PROJECT, "global", "global"]);
    expect(result).toEqual({ written: 3, belowThreshold: 1 });
  });

  it("dates no fact after now, whatever clock wrote the transcript", async () => {
    const { db, store } = makeStore();
    const now = 1_700_000_000_000;
    const ahead = now + 400 * DAY_MS;
    addSession(store.storage, () => now, {
      id: "s1",
      updatedAt: ahead,
      items: [
        { role: "user", text: "The API listens on port 8080.", ts: ahead },
        { role: "assistant", text: "Noted.", ts: ahead },
      ],
    });
    const [first] = store.storage.items.list("s1");
    const session = output([["The API listens on port 8080.", "fact"]]);
    session.facts[0]!.evidence = [first!.id];
    await ingestStage1Facts(session, { store, db, llm: null, now: () => now });
    const [memory] = store.storage.memories.getLive([1], { scopes: "all" });
    expect(memory?.occurredAt).toBe(now);
  });
});
