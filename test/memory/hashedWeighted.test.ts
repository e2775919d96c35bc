import { describe, expect, it } from "vitest";
import { createHashedEmbeddingProvider, hashedEmbedding } from "../../src/providers/embeddings/hashedEmbedding.js";
import { dot } from "../../src/store/vectorCodec.js";

describe("hashed embedding with per-word weights (query-side IDF)", () => {
  const provider = createHashedEmbeddingProvider({ dimensions: 256 });

  it("equals the plain embedding when every weight is 1", async () => {
    const [plain] = await provider.embed(["Melanie went camping in June"]);
    expect(provider.embedWeighted?.("Melanie went camping in June", () => 1)).toEqual(plain);
  });

  it("moves the query toward the memory that shares its heavily weighted word", () => {
    const common = hashedEmbedding("melanie talked about the weekend", 256);
    const rare = hashedEmbedding("camping trip by the lake", 256);
    const query = "melanie camping";
    const plain = hashedEmbedding(query, 256);
    const weighted = hashedEmbedding(query, 256, (s) => (s === "camp" ? 5 : 0.2));
    expect(dot(weighted, rare) - dot(weighted, common)).toBeGreaterThan(dot(plain, rare) - dot(plain, common));
    // Still L2-normalized.
    expect(dot(weighted, weighted)).toBeCloseTo(1, 5);
  });
});
