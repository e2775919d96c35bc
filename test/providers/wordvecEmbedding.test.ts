import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEmbeddingProvider } from "../../src/providers/embeddings/createEmbeddingProvider.js";
import { packWordVectors } from "../../src/providers/embeddings/wordvec/packWordVectors.js";
import { WordVectorFile } from "../../src/providers/embeddings/wordvec/wordVectorFile.js";
import {
  createWordvecEmbeddingProvider,
  shippedWordVectorsPath,
  wordvecEmbedding,
} from "../../src/providers/embeddings/wordvec/wordvecEmbedding.js";
import { tempDir } from "../helpers/tempDir.js";

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

/** A small vocabulary in three directions: testing words, deploy words, and a shared common word. */
function smallFile(): string {
  const dims = 8;
  const axis = (i: number, extra = 0) => Float32Array.from({ length: dims }, (_, j) => (j === i ? 1 : 0) + extra * 0.1);
  const entries = [
    { word: "vitest", vector: axis(0), probability: 1e-5 },
    { word: "jest", vector: axis(0, 1), probability: 1e-5 },
    { word: "suite", vector: axis(0, 2), probability: 1e-4 },
    { word: "deploy", vector: axis(1), probability: 1e-4 },
    { word: "kubernetes", vector: axis(1, 1), probability: 1e-5 },
    { word: "rollout", vector: axis(1, 2), probability: 1e-5 },
    { word: "run", vector: axis(2), probability: 1e-2 },
    { word: "zzz", vector: axis(3), probability: 1e-6 },
    { word: "aaa", vector: axis(4), probability: 1e-6 },
    { word: "défaut", vector: axis(5), probability: 1e-6 },
  ];
  const path = join(tempDir(), "words.bin");
  writeFileSync(path, packWordVectors(entries));
  return path;
}

describe("word-vector file", () => {
  it("finds every packed word by binary search, first, last and non-ASCII included, and no other", () => {
    const file = new WordVectorFile(smallFile());
    for (const word of ["aaa", "deploy", "défaut", "jest", "kubernetes", "rollout", "run", "suite", "vitest", "zzz"]) {
      expect(file.lookup(word), word).toBeDefined();
    }
    for (const word of ["", "a", "aab", "jes", "jests", "zzzz", "vitest-x", "x".repeat(40)]) {
      expect(file.lookup(word), word).toBeUndefined();
    }
    file.close();
  });

  it("keeps each word's probability and its direction after int8 quantization", () => {
    const file = new WordVectorFile(smallFile());
    expect(file.lookup("run")?.probability).toBeCloseTo(1e-2, 6);
    const vitest = file.lookup("vitest")!.vector;
    const jest = file.lookup("jest")!.vector;
    const deploy = file.lookup("deploy")!.vector;
    const cos = (a: Float32Array, b: Float32Array) => cosine(a, b) / Math.hypot(...a) / Math.hypot(...b);
    expect(cos(vitest, jest)).toBeGreaterThan(cos(vitest, deploy) + 0.2);
  });

  it("refuses a file that is not a word-vector file, saying how to rebuild it", () => {
    const path = join(tempDir(), "not.bin");
    writeFileSync(path, "hello world, not vectors at all");
    expect(() => new WordVectorFile(path).lookup("x")).toThrow(/build-word-vectors/);
  });
});

describe("wordvec embedding", () => {
  it("embeds deterministically into unit vectors where texts about one topic are closer", () => {
    const file = new WordVectorFile(smallFile());
    const a = wordvecEmbedding("Run the vitest suite", file);
    expect(wordvecEmbedding("Run the vitest suite", file)).toEqual(a);
    expect(Math.hypot(...a)).toBeCloseTo(1, 5);
    const jest = wordvecEmbedding("jest", file);
    const rollout = wordvecEmbedding("kubernetes rollout", file);
    expect(cosine(a, jest)).toBeGreaterThan(cosine(a, rollout));
  });

  it("gives the zero vector to empty text and to text with no known word, and skips unknown words", () => {
    const file = new WordVectorFile(smallFile());
    expect(wordvecEmbedding("", file).every((x) => x === 0)).toBe(true);
    expect(wordvecEmbedding("frobnicate the quux", file).every((x) => x === 0)).toBe(true);
    expect(wordvecEmbedding("deploy frobnicate quux", file)).toEqual(wordvecEmbedding("deploy", file));
  });

  it("weighs rare words above common ones (SIF)", () => {
    const file = new WordVectorFile(smallFile());
    const v = wordvecEmbedding("run vitest", file);
    expect(cosine(v, wordvecEmbedding("vitest", file))).toBeGreaterThan(cosine(v, wordvecEmbedding("run", file)));
  });

  it("provider: the configured width, word vectors first and a hashed sketch after, a model id per file", async () => {
    const path = smallFile();
    const provider = createWordvecEmbeddingProvider({ path, dimensions: 64 });
    expect(provider.dimensions).toBe(64);
    expect(provider.model).toMatch(/^wordvec-[0-9a-f]{16}-64$/);
    const [a, b, empty] = await provider.embed(["vitest suite", "vitest suite", ""]);
    expect(a).toHaveLength(64);
    expect(a).toEqual(b);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect(empty!.every((x) => x === 0)).toBe(true);
    // A word the vectors do not know still reaches the vector through the hashed part.
    const [oov] = await provider.embed(["frobnicate"]);
    expect(oov!.slice(0, 8).every((x) => x === 0)).toBe(true);
    expect(oov!.some((x) => x !== 0)).toBe(true);
  });

  it("config: wordvec from embeddings config; a bad file or too narrow a width is a config error saying what to do", async () => {
    const provider = createEmbeddingProvider({ provider: "wordvec", dimensions: 384 });
    expect(provider.name).toBe("wordvec");
    expect((await provider.embed(["run the jest suite"]))[0]).toHaveLength(384);
    const narrow = createEmbeddingProvider({ provider: "wordvec", dimensions: 64 });
    await expect(narrow.embed(["jest"])).rejects.toThrow(/embeddings.dimensions \(64\) must exceed/);
    const missing = createEmbeddingProvider({
      provider: "wordvec",
      model: join(tempDir(), "none.bin"),
      dimensions: 384,
    });
    await expect(missing.embed(["jest"])).rejects.toThrow(/cannot read the word vectors.*build-word-vectors/);
  });

  it("the shipped file knows the words coding agents use", () => {
    const file = new WordVectorFile(shippedWordVectorsPath);
    for (const word of ["test", "deploy", "lint", "database", "jest", "npm", "docker", "migration"]) {
      expect(file.lookup(word), word).toBeDefined();
    }
    file.close();
  });
});
