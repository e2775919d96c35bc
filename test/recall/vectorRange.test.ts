import { describe, expect, it } from "vitest";
import type { EmbeddingProvider } from "../../src/providers/embeddings/types.js";
import { rescaleCosine } from "../../src/recall/fuse.js";
import { makeStore } from "../memory/storeFixture.js";

/**
 * A model like many sentence encoders: every text shares one direction (component 0), so unrelated
 * texts still have a cosine of 0.5; a text's topic (the concept words it names) adds its own direction.
 */
const TOPICS = [
  ["deploy", "deploys", "rollout", "release", "ship"],
  ["test", "tests", "jest", "vitest", "suite"],
  ["database", "postgres", "migration", "schema"],
];

function highBaselineModel(): EmbeddingProvider {
  const embed = (text: string) => {
    const words = text.toLowerCase().split(/\W+/);
    const v = new Float32Array(8);
    v[0] = 1;
    TOPICS.forEach((topic, i) => {
      if (topic.some((w) => words.includes(w))) v[i + 1] = 1;
    });
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  return {
    name: "fake",
    model: "fake-baseline",
    // sqlite-vec's bit index wants a multiple of 8.
    dimensions: 8,
    embed: async (texts) => texts.map(embed),
    available: async () => true,
  };
}

const MEMORIES = [
  "Deploys go out on Fridays after the rollout check.",
  "The postgres schema is changed by migrations.",
];

async function recall(query: string, vectorRange?: { floor: number; ceiling: number }) {
  const config = { alpha: 0.4, ...(vectorRange ? { vectorRange } : {}) };
  const { store } = makeStore({ embeddings: highBaselineModel(), config });
  const ids: number[] = [];
  for (const content of MEMORIES) ids.push((await store.remember({ content, scope: "p" })).id!);
  return { ids, results: (await store.recall({ query, scopes: ["p"], k: 5 })).results };
}

describe("the vector leg on the embedding model's own cosine scale (recall.vectorRange)", () => {
  it("maps the model's unrelated cosine to 0 and its paraphrase cosine to 1, clipped", () => {
    const range = { floor: 0.5, ceiling: 0.9 };
    expect(rescaleCosine(0.5, range)).toBe(0);
    expect(rescaleCosine(0.3, range)).toBe(0);
    expect(rescaleCosine(0.7, range)).toBeCloseTo(0.5);
    expect(rescaleCosine(0.95, range)).toBe(1);
    expect(rescaleCosine(0.42, { floor: 0, ceiling: 1 })).toBe(0.42);
  });

  it("without the range, a model's baseline cosine makes every memory an answer to an unrelated question", async () => {
    const { results } = await recall("which test runner do we use");
    expect(results.length).toBe(MEMORIES.length);
  });

  it("with the range, an unrelated question gets nothing and a paraphrase still finds its memory", async () => {
    const range = { floor: 0.5, ceiling: 0.75 };
    expect((await recall("which test runner do we use", range)).results).toEqual([]);
    const { ids, results } = await recall("when do we ship a release", range);
    expect(results.map((r) => r.id)).toEqual([ids[0]]);
    expect(results[0]?.sources).toEqual(["vector"]);
  });
});
