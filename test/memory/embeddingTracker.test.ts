import { describe, expect, it } from "vitest";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { EmbeddingTracker } from "../../src/memory/embeddingTracker.js";
import { hashedEmbedding } from "../../src/providers/embeddings/hashedEmbedding.js";
import type { EmbeddingProvider } from "../../src/providers/embeddings/types.js";
import { makeStore } from "./storeFixture.js";

/** A provider that can be switched off, like a local model server that stops and restarts. */
function flakyProvider(): EmbeddingProvider & { up: boolean; calls: number } {
  const provider = {
    name: "flaky",
    model: "flaky-1",
    dimensions: 64,
    up: false,
    calls: 0,
    async embed(texts: string[]) {
      provider.calls++;
      if (!provider.up) throw new Error("connection refused");
      return texts.map((t) => hashedEmbedding(t, 64));
    },
    async available() {
      return provider.up;
    },
  };
  return provider;
}

describe("EmbeddingTracker", () => {
  it("skips cycles while the provider is down and fills vectors in batches once it is back", async () => {
    const provider = flakyProvider();
    const { db, store } = makeStore({ embeddings: provider });
    await store.remember(["alpha note", "beta note", "gamma note"].map((content) => ({ content })));
    expect(store.counts().staleVectors).toBe(3);
    const tracker = new EmbeddingTracker({
      db,
      memories: store.storage.memories,
      embeddings: store.storage.embeddings,
      vectors: store.storage.vectors,
      provider,
      config: defaultRecallConfig({ embeddingTracker: { batchSize: 2 } }).embeddingTracker,
    });
    const callsWhileDown = provider.calls;
    expect(await tracker.runCycle()).toBe(0);
    expect(tracker.getStats()).toMatchObject({ skippedCycles: 1, processed: 0 });
    expect(provider.calls).toBe(callsWhileDown);

    provider.up = true;
    expect(await tracker.runCycle()).toBe(2);
    expect(tracker.getStats().queueDepth).toBe(1);
    expect(await tracker.runCycle()).toBe(1);
    expect(await tracker.runCycle()).toBe(0);
    expect(tracker.getStats()).toMatchObject({ processed: 3, skippedCycles: 1, queueDepth: 0 });
    expect(store.counts().staleVectors).toBe(0);
    const r = await store.recall({ query: "gamma", scopes: "all" });
    expect(r.results[0]?.sources).toContain("vector");
  });

  it("spends nothing on the provider when no vector is missing", async () => {
    const provider = flakyProvider();
    provider.up = true;
    const { db, store } = makeStore({ embeddings: provider });
    await store.remember({ content: "already embedded" });
    const tracker = new EmbeddingTracker({
      db,
      memories: store.storage.memories,
      embeddings: store.storage.embeddings,
      vectors: store.storage.vectors,
      provider: { ...provider, available: async () => expect.unreachable("available() on an idle cycle") },
      config: defaultRecallConfig().embeddingTracker,
    });
    const calls = provider.calls;
    expect(await tracker.runCycle()).toBe(0);
    expect(provider.calls).toBe(calls);
    expect(tracker.getStats()).toMatchObject({ queueDepth: 0, skippedCycles: 0 });
  });

  it("treats vectors of another model as stale", async () => {
    const { db, store } = makeStore();
    await store.remember({ content: "switch models later" });
    const next = { ...flakyProvider(), model: "flaky-2", up: true };
    next.embed = async (texts: string[]) => texts.map((t) => hashedEmbedding(t, 64));
    next.available = async () => true;
    const tracker = new EmbeddingTracker({
      db,
      memories: store.storage.memories,
      embeddings: store.storage.embeddings,
      vectors: store.storage.vectors,
      provider: next,
      config: defaultRecallConfig().embeddingTracker,
    });
    expect(store.storage.embeddings.countStale("flaky-2")).toBe(1);
    expect(await tracker.runCycle()).toBe(1);
    expect(store.storage.embeddings.countStale("flaky-2")).toBe(0);
  });
});
