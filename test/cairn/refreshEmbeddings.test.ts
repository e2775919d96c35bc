import { describe, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { tempDir } from "../helpers/tempDir.js";

/** A home whose two memories were embedded at 256 dimensions, with nothing left to refresh then. */
async function homeWithTwoMemories(): Promise<string> {
  const home = tempDir("cairn-embed-");
  const first = new Cairn({ home, env: {}, config: { "embeddings.dimensions": 256 } });
  await first.remember([
    { content: "The staging deploy runs from the release branch", scope: "global" },
    { content: "Integration tests need the mock server on port 4010", scope: "global" },
  ]);
  expect(await first.refreshEmbeddings()).toBe(0);
  first.close();
  return home;
}

describe("Cairn.refreshEmbeddings", () => {
  it("re-embeds every memory after the embedding model changes, and then has nothing left to do", async () => {
    const home = await homeWithTwoMemories();

    const second = new Cairn({ home, env: {}, config: { "embeddings.dimensions": 128 } });
    expect(second.memories.counts().staleVectors).toBe(2);
    expect(await second.refreshEmbeddings()).toBe(2);
    expect(second.memories.counts().staleVectors).toBe(0);
    expect(await second.refreshEmbeddings()).toBe(0);
    const { results } = await second.recall({ query: "mock server port", scope: "global" });
    expect(results[0]?.content).toBe("Integration tests need the mock server on port 4010");
    second.close();
  });

  it("re-embeds a whole store in one refresh when the embedding is local, and one batch when the budget is spent", async () => {
    const home = tempDir("cairn-embed-");
    const first = new Cairn({ home, env: {}, config: { "embeddings.dimensions": 256 } });
    // More than the 50 batches of 8 a refresh was once capped at; words no two memories share.
    const word = (n: number) =>
      [...n.toString(26)].map((d) => String.fromCharCode(97 + Number.parseInt(d, 26))).join("");
    const memories = Array.from({ length: 450 }, (_, i) => ({
      content: `codename ${word(i + 700)}${word(i + 1400)} ships ${word(i + 2100)}`,
      scope: "global",
    }));
    await first.remember(memories);
    first.close();
    const second = new Cairn({ home, env: {}, config: { "embeddings.dimensions": 128 } });
    expect(await second.refreshEmbeddings(0)).toBe(8);
    expect(await second.refreshEmbeddings()).toBe(442);
    expect(second.memories.counts().staleVectors).toBe(0);
    second.close();
  });

  it("status counts the memories still waiting for a vector of the configured embedding", async () => {
    const home = await homeWithTwoMemories();
    const second = new Cairn({ home, env: {}, config: { "embeddings.dimensions": 128 } });
    expect(second.status().memories).toEqual({ live: 2, embeddingModel: second.embedder.model, waitingForVector: 2 });
    await second.refreshEmbeddings();
    expect(second.status().memories.waitingForVector).toBe(0);
    second.close();
  });

  it("joins a refresh already running instead of embedding the same memories twice", async () => {
    const home = await homeWithTwoMemories();
    const second = new Cairn({ home, env: {}, config: { "embeddings.dimensions": 128 } });
    const embed = vi.spyOn(second.embedder, "embed");
    expect(await Promise.all([second.refreshEmbeddings(), second.refreshEmbeddings()])).toEqual([2, 2]);
    expect(embed).toHaveBeenCalledTimes(2);
    expect(await second.refreshEmbeddings()).toBe(0);
    second.close();
  });
});
