import { writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { createEmbeddingProvider } from "../../src/providers/embeddings/createEmbeddingProvider.js";
import { TransformersEmbeddingProvider } from "../../src/providers/embeddings/transformersEmbedding.js";
import { ProviderError } from "../../src/providers/providerError.js";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";
import { modelDirectory, type StubLibrary, stubTransformersLibrary } from "../helpers/transformersStub.js";

const ID = "acme/mini-embed";

function provider(options: {
  modelsDir: string;
  model?: string;
  dtype?: "q8" | "fp32" | "fp16";
  batchSize?: number;
  library?: StubLibrary;
  dimensions?: number;
}) {
  const library = options.library ?? stubTransformersLibrary(options.dimensions ?? 32);
  const embedder = new TransformersEmbeddingProvider({
    model: options.model ?? ID,
    modelsDir: options.modelsDir,
    dimensions: options.dimensions ?? 32,
    dtype: options.dtype ?? "q8",
    batchSize: options.batchSize ?? 16,
    loadLibrary: async () => library,
  });
  return { embedder, library };
}

describe("the transformers provider (transformers.js's pipeline API, stubbed at the module boundary)", () => {
  it("loads the downloaded model by hub id from cairn's models folder, local files only, with the configured dtype", async () => {
    const modelsDir = tempDir();
    modelDirectory(modelsDir, ID, ["onnx/model.onnx"]);
    const { embedder, library } = provider({ modelsDir, dtype: "fp32" });
    expect(await embedder.embed(["hello"])).toHaveLength(1);
    expect(library.loads).toEqual([{ root: `${modelsDir}${sep}`, model: ID, dtype: "fp32" }]);
    expect(library.env).toMatchObject({ allowRemoteModels: false, allowLocalModels: true });
    expect(embedder.model).toBe(`transformers:${ID}:fp32`);
  });

  it("loads a model directory given by path", async () => {
    const dir = modelDirectory(tempDir(), "my-model");
    const { embedder, library } = provider({ modelsDir: tempDir(), model: dir });
    expect(await embedder.available()).toBe(true);
    expect(library.loads[0]).toMatchObject({ model: "my-model", root: `${join(dir, "..")}${sep}` });
  });

  it("embeds in batches of embeddings.batchSize, the vectors in the texts' order, and loads the model once", async () => {
    const modelsDir = tempDir();
    modelDirectory(modelsDir, ID);
    const { embedder, library } = provider({ modelsDir, batchSize: 3 });
    const texts = ["a one", "b two", "c three", "d four", "e five", "f six", "g seven"];
    const vectors = await embedder.embed(texts);
    expect(library.batches).toEqual([3, 3, 1]);
    const alone = await Promise.all(texts.map(async (t) => (await embedder.embed([t]))[0]));
    expect(vectors.map((v) => [...v])).toEqual(alone.map((v) => [...v!]));
    expect(library.loads).toHaveLength(1);
  });

  it("says which file it loaded, with the revision cairn downloaded", async () => {
    const modelsDir = tempDir();
    const dir = modelDirectory(modelsDir, ID);
    writeFileSync(join(dir, "cairn-model.json"), JSON.stringify({ id: ID, revision: "0123abcd", files: [] }));
    const { embedder } = provider({ modelsDir });
    expect(await embedder.status()).toEqual({
      ready: true,
      detail: `${ID} (revision 0123abcd, dtype q8): ${join(dir, "onnx", "model_quantized.onnx")}`,
    });
    const byPath = provider({ modelsDir: tempDir(), model: modelDirectory(tempDir(), "own") }).embedder;
    expect((await byPath.status()).detail).toMatch(/^own \(revision unknown \(not downloaded by cairn\), dtype q8\): /);
  });

  it("a model not downloaded: not ready, one line naming the download command, and no download attempted", async () => {
    const modelsDir = tempDir();
    const { embedder, library } = provider({ modelsDir });
    expect(await embedder.status()).toEqual({
      ready: false,
      detail: `transformers: no model at ${join(modelsDir, "acme", "mini-embed")}: run \`cairn embeddings download ${ID} --dtype q8\``,
    });
    expect(await embedder.available()).toBe(false);
    const error = await embedder.embed(["x"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "config", isRetryable: false });
    expect(library.loads).toEqual([]);
  });

  it("a dtype whose weights the directory lacks: names the file and the dtypes it has", async () => {
    const modelsDir = tempDir();
    const dir = modelDirectory(modelsDir, ID, ["onnx/model.onnx", "onnx/model_quantized.onnx"]);
    const { embedder } = provider({ modelsDir, dtype: "fp16" });
    expect((await embedder.status()).detail).toBe(
      `transformers: ${dir} has no onnx/model_fp16.onnx (embeddings.dtype fp16): set embeddings.dtype to fp32 or q8, or run \`cairn embeddings download ${ID} --dtype fp16\``,
    );
  });

  it("picks up a model downloaded after a failed load, without a restart", async () => {
    const modelsDir = tempDir();
    const { embedder } = provider({ modelsDir });
    expect(await embedder.available()).toBe(false);
    modelDirectory(modelsDir, ID);
    expect(await embedder.available()).toBe(true);
  });

  it("a model of another width than embeddings.dimensions: a config error saying the width to set", async () => {
    const modelsDir = tempDir();
    modelDirectory(modelsDir, ID);
    const { embedder } = provider({ modelsDir, dimensions: 16, library: stubTransformersLibrary(24) });
    await expect(embedder.embed(["x"])).rejects.toThrow(
      "transformers: the model gives 24-dimension vectors, embeddings.dimensions is 16: set embeddings.dimensions to 24",
    );
  });

  it("without the optional package: says how to install it", async () => {
    const modelsDir = tempDir();
    modelDirectory(modelsDir, ID);
    // The real import: @huggingface/transformers is not a dependency of cairn.
    const embedder = createEmbeddingProvider(
      { provider: "transformers", model: ID, dimensions: 384, dtype: "q8", batchSize: 8 },
      { modelsDir },
    );
    const status = await embedder.status!();
    expect(status.ready).toBe(false);
    expect(status.detail).toMatch(
      /@huggingface\/transformers is not installed: run `npm install -g @huggingface\/transformers`/,
    );
  });
});

describe("cairn doctor on the embedding provider", () => {
  it("names the model it loaded, or says why it cannot and what to do", () => {
    const home = tempDir("cairn-doctor-embed-");
    const env = { CAIRN_HOME: `${home}/cairn`, HOME: home };
    expect(runCli(["doctor"], { env }).stdout).toMatch(
      /^embeddings {4}wordvec: wordvec-[0-9a-f]+-384 \(384 dimensions\)$/m,
    );
    const transformers = { ...env, CAIRN_EMBEDDINGS_PROVIDER: "transformers" };
    const doctor = runCli(["doctor"], { env: transformers });
    expect(doctor.status, doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(
      /^embeddings {4}transformers NOT ready \(recall uses keywords only\): transformers: no model at .*Xenova.all-MiniLM-L6-v2: run `cairn embeddings download Xenova\/all-MiniLM-L6-v2 --dtype q8`$/m,
    );
    const json = JSON.parse(runCli(["doctor", "--json"], { env: transformers }).stdout) as { embeddings: unknown };
    expect(json.embeddings).toMatchObject({ provider: "transformers", ready: false });
  });
});
