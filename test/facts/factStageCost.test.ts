import { describe, expect, it } from "vitest";
import { ingestFacts } from "../../src/pipeline/facts/ingestFacts.js";
import type { Fact } from "../../src/pipeline/facts/types.js";
import { createHashedEmbeddingProvider } from "../../src/providers/embeddings/hashedEmbedding.js";
import type { EmbeddingProvider } from "../../src/providers/embeddings/types.js";
import { FakeLlm } from "../helpers/fakeLlm.js";
import { makeStore } from "../memory/storeFixture.js";

const fact = (content: string): Fact => ({ content, type: "fact", confidence: 0.9, evidence: [1] });
const scope = "proj";

/** Hashed embeddings that count the calls made to them. */
function countingEmbeddings(): EmbeddingProvider & { calls: string[][] } {
  const inner = createHashedEmbeddingProvider({ dimensions: 64 });
  const calls: string[][] = [];
  return Object.assign(Object.create(inner) as EmbeddingProvider, {
    calls,
    embed: (texts: string[]) => {
      calls.push(texts);
      return inner.embed(texts);
    },
  });
}

describe("the fact stage's cost per session", () => {
  it("searches candidates once per distinct statement, never for an exact duplicate, and embeds the session's writes at once", async () => {
    const embeddings = countingEmbeddings();
    const { db, store } = makeStore({ embeddings });
    const stored = await store.remember({ content: "Build caches live in the .turbo folder", scope });
    const searched: string[] = [];
    const recall = store.recall.bind(store);
    store.recall = (request) => {
      searched.push(request.query);
      return recall(request);
    };
    embeddings.calls.length = 0;
    const result = await ingestFacts(
      {
        facts: [
          fact("build caches live in the .turbo folder."),
          fact("Release notes are written in CHANGES.md"),
          fact("Release notes are written in CHANGES.md"),
          fact("The staging cluster runs on Fly.io machines"),
        ],
        entities: [],
        scope,
        provenance: {},
      },
      { store, db, llm: new FakeLlm() },
    );
    expect(result.outcomes.map((o) => [o.status, o.decision?.decidedBy])).toEqual([
      ["none", "exact-duplicate"],
      ["created", "no-candidates"],
      ["deduped", "no-candidates"],
      ["created", "no-candidates"],
    ]);
    expect(result.outcomes[0]!.targetId).toBe(stored.id);
    expect(searched).toEqual([
      "Release notes are written in CHANGES.md",
      "The staging cluster runs on Fly.io machines",
    ]);
    // Two recalls embed their queries; the three writes share one call (the repeated text once).
    expect(embeddings.calls.slice(2)).toEqual([
      ["Release notes are written in CHANGES.md", "The staging cluster runs on Fly.io machines"],
    ]);
    expect(store.counts().live).toBe(3);
  });

  it("stores all of a session's facts or none: a failure midway leaves nothing for the retry to trip on", async () => {
    const { db, store } = makeStore();
    const [old] = (
      await ingestFacts(
        { facts: [fact("The API server listens on port 3000 locally")], entities: [], scope, provenance: {} },
        { store, db },
      )
    ).outcomes.map((o) => o.memoryId!);
    const session = {
      facts: [fact("Release notes are written in CHANGES.md"), fact("The API server listens on port 8080 locally")],
      entities: [],
      scope,
      provenance: { sessionId: "s2" },
    };
    const update = () =>
      new FakeLlm({
        answers: [
          { json: { decisions: [{ fact: 1, action: "UPDATE", targetId: old, confidence: 0.9, reason: "new port" }] } },
        ],
      });
    const supersede = store.supersede.bind(store);
    store.supersede = () => {
      throw new Error("disk I/O error");
    };
    await expect(ingestFacts(session, { store, db, llm: update() })).rejects.toThrow("disk I/O error");
    expect(store.counts().live).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM memory_history WHERE event LIKE 'fact_%'").get()).toEqual({ n: 1 });

    store.supersede = supersede;
    const retried = await ingestFacts(session, { store, db, llm: update() });
    expect(retried.outcomes.map((o) => o.status)).toEqual(["created", "updated"]);
    expect(store.get(old!)?.supersededBy).toBe(retried.outcomes[1]!.memoryId);
  });
});
