import { describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import { createHashedEmbeddingProvider } from "../../src/providers/embeddings/hashedEmbedding.js";
import type { EmbeddingProvider } from "../../src/providers/embeddings/types.js";
import { createWordvecEmbeddingProvider } from "../../src/providers/embeddings/wordvec/wordvecEmbedding.js";
import { stem } from "../../src/text/stem.js";
import { contentStems } from "../../src/text/tokenize.js";
import { tempDir } from "../helpers/tempDir.js";
import { makeStore } from "../memory/storeFixture.js";

/** Memories of one project, written from general knowledge of the tools. */
const MEMORIES = [
  "Unit tests run with jest; snapshots live beside each component.",
  "Deploys go out through kubernetes: the rollout waits for the readiness probe.",
  "The postgres database is migrated with alembic before the app starts.",
  "Use prettier to format the code before committing.",
  "Docker images are pushed to the registry after every merge to main.",
];

/** Questions that share no word (after stemming) with the memory that answers them. */
const PARAPHRASES = [
  { query: "mocha or vitest?", answer: 0 },
  { query: "where are the container builds published", answer: 4 },
];

/**
 * A memory that shares no word with the question has no keyword score, so its fused score is
 * alpha * cosine, under the default minScore: the threshold is lifted to see the ranking itself.
 */
async function recallTop(embeddings: EmbeddingProvider, query: string) {
  const { store } = makeStore({ embeddings, config: { alpha: 0.4, minScore: 0 } });
  const ids: number[] = [];
  for (const content of MEMORIES) ids.push((await store.remember({ content, scope: "p" })).id!);
  const { results } = await store.recall({ query, scopes: ["p"], k: 5 });
  return { ids, results };
}

describe("recall through the shipped word vectors (offline)", () => {
  it("the paraphrases share no word with their memories", () => {
    for (const { query, answer } of PARAPHRASES) {
      const memory = new Set(contentStems(MEMORIES[answer]!));
      expect(contentStems(query).filter((s) => memory.has(stem(s)) || memory.has(s))).toEqual([]);
    }
  });

  it.each(PARAPHRASES)("finds the memory for '$query' through the vector leg", async ({ query, answer }) => {
    const { ids, results } = await recallTop(createWordvecEmbeddingProvider({ dimensions: 384 }), query);
    expect(results[0]?.id).toBe(ids[answer]);
    expect(results[0]?.sources).toEqual(["vector"]);
  });

  it("the hashed vectors alone do not find the container memory (the word vectors make the difference)", async () => {
    const { query, answer } = PARAPHRASES[1]!;
    const { ids, results } = await recallTop(createHashedEmbeddingProvider({ dimensions: 384 }), query);
    expect(results[0]?.id).not.toBe(ids[answer]);
  });
});

describe("the default embedding", () => {
  const modelOf = (config: Record<string, unknown>) => {
    const cairn = openCairn({ home: tempDir("cairn-embed-default-"), env: {}, config });
    try {
      return cairn.embedder.model;
    } finally {
      cairn.close();
    }
  };

  it("is the word vectors for agent memory and the hashed sketch for conversations", () => {
    expect(modelOf({})).toMatch(/^wordvec-[0-9a-f]+-384$/);
    expect(modelOf({ "recall.profile": "conversation" })).toBe("hashed-v1-384");
    expect(modelOf({ "embeddings.provider": "hashed" })).toBe("hashed-v1-384");
  });
});
