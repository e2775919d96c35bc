import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hashedEmbedding } from "../../src/providers/embeddings/hashedEmbedding.js";
import type { FeatureExtractor, TransformersLibrary } from "../../src/providers/embeddings/transformersEmbedding.js";

/** The stub with what it was asked: each load (env.localModelPath, model id, dtype) and each batch's size. */
export interface StubLibrary extends TransformersLibrary {
  loads: Array<{ root: string; model: string; dtype: string }>;
  batches: number[];
}

/**
 * transformers.js's pipeline() at the module boundary: it resolves the model id against
 * env.localModelPath, refuses remote files, and its extractor returns a tensor with tolist().
 */
export function stubTransformersLibrary(dimensions: number): StubLibrary {
  const library: StubLibrary = {
    batches: [],
    loads: [],
    env: { allowRemoteModels: true, allowLocalModels: false, localModelPath: "/models/" },
    async pipeline(task, model, options) {
      library.loads.push({ root: library.env.localModelPath, model, dtype: options.dtype });
      if (task !== "feature-extraction" || !options.local_files_only || library.env.allowRemoteModels) {
        throw new Error("the stub expects a local feature-extraction pipeline");
      }
      const config = join(library.env.localModelPath, model, "config.json");
      if (!existsSync(config)) throw new Error(`file was not found locally at "${config}".`);
      const extractor: FeatureExtractor = async (texts, call) => {
        library.batches.push(texts.length);
        const vectors = texts.map((text) => [...hashedEmbedding(`${model} ${text}`, dimensions)]);
        return { tolist: () => (call.normalize ? vectors : vectors.map((v) => v.map((x) => 2 * x))) };
      };
      return extractor;
    },
  };
  return library;
}

/** A model directory as `cairn embeddings download` leaves it (the stub does not read the weights). */
export function modelDirectory(root: string, id: string, weights = ["onnx/model_quantized.onnx"]): string {
  const dir = join(root, ...id.split("/"));
  mkdirSync(join(dir, "onnx"), { recursive: true });
  for (const file of ["config.json", "tokenizer.json", "tokenizer_config.json"]) writeFileSync(join(dir, file), "{}");
  for (const file of weights) writeFileSync(join(dir, file), "weights");
  return dir;
}
