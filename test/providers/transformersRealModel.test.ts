import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  TransformersEmbeddingProvider,
  type TransformersLibrary,
} from "../../src/providers/embeddings/transformersEmbedding.js";
import { tempDir } from "../helpers/tempDir.js";
import { writeTinyModel } from "../helpers/tinyOnnxModel.js";

/**
 * The provider with the real transformers.js and ONNX runtime on a model the test builds. The package
 * is optional and not a dependency of cairn, so this runs where it resolves, or where
 * CAIRN_TEST_TRANSFORMERS names its entry file (e.g. <dir>/node_modules/@huggingface/transformers/
 * dist/transformers.node.mjs after `npm install --ignore-scripts @huggingface/transformers` in <dir>);
 * elsewhere the stub at the module boundary covers the same code (transformersEmbedding.test.ts).
 */
async function realLibrary(): Promise<TransformersLibrary | undefined> {
  const candidates = [process.env.CAIRN_TEST_TRANSFORMERS, "@huggingface/transformers"].filter(Boolean) as string[];
  for (const candidate of candidates) {
    try {
      const specifier = candidate.startsWith("/") ? pathToFileURL(candidate).href : candidate;
      return (await import(/* @vite-ignore */ specifier)) as TransformersLibrary;
    } catch {
      // Not installed here.
    }
  }
  return undefined;
}

const library = await realLibrary();

const WORDS = ["deploy", "test", "database", "migration"];
/** fp32 rows, and the "quantized" file's rows (other numbers, so the loaded file shows in the vectors). */
const FP32 = [
  [1, 0, 0, 0],
  [0, 1, 0, 0],
  [0, 0, 1, 0],
  [0, 0, 1, 1],
];
const Q8 = [
  [0, 0, 0, 1],
  [0, 0, 1, 0],
  [0, 1, 0, 0],
  [1, 0, 0, 0],
];

function modelFolder(): string {
  const dir = join(tempDir(), "tiny-embed");
  writeTinyModel(dir, WORDS, FP32, "model.onnx");
  writeTinyModel(dir, WORDS, Q8, "model_quantized.onnx");
  return dir;
}

const round = (vectors: Float32Array[]) => vectors.map((v) => [...v].map((x) => Number(x.toFixed(4))));
const h = Number(Math.SQRT1_2.toFixed(4));

describe.skipIf(!library)("the transformers provider with the real library on a model the test builds", () => {
  const provider = (dtype: "fp32" | "q8", batchSize = 16) =>
    new TransformersEmbeddingProvider({
      model: modelFolder(),
      modelsDir: tempDir(),
      dimensions: 4,
      dtype,
      batchSize,
      loadLibrary: async () => library!,
    });

  it("mean-pools the tokens' rows of the dtype's weights file into unit vectors", async () => {
    const fp32 = await provider("fp32").embed(["deploy test", "migration", "Database"]);
    expect(round(fp32)).toEqual([
      [h, h, 0, 0],
      [0, 0, h, h],
      [0, 0, 1, 0],
    ]);
    const q8 = await provider("q8").embed(["deploy test"]);
    expect(round(q8)).toEqual([[0, 0, h, h]]);
  });

  it("gives the same vectors in batches as alone, in order", async () => {
    const texts = ["deploy", "test test database", "migration deploy", "database", "test"];
    const batched = await provider("fp32", 2).embed(texts);
    const alone = await Promise.all(texts.map(async (t) => (await provider("fp32").embed([t]))[0]!));
    expect(round(batched)).toEqual(round(alone));
  });

  it("loads only local files and names the file it loaded", async () => {
    const embedder = provider("q8");
    const status = await embedder.status();
    expect(status.ready).toBe(true);
    expect(status.detail).toMatch(
      /^tiny-embed \(revision unknown \(not downloaded by cairn\), dtype q8\): .*model_quantized\.onnx$/,
    );
    expect(library!.env.allowRemoteModels).toBe(false);
  });
});
