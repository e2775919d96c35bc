import { cairnHome, cairnPaths } from "../../config/paths.js";
import { type CairnConfig, transformersDefaults } from "../../config/schema.js";
import { defaultEmbeddingBaseUrls, defaultEmbeddingModels } from "./defaults.js";
import { createHashedEmbeddingProvider } from "./hashedEmbedding.js";
import { OllamaEmbeddingProvider } from "./ollamaEmbedding.js";
import { OpenAiEmbeddingProvider } from "./openaiEmbedding.js";
import { TransformersEmbeddingProvider } from "./transformersEmbedding.js";
import type { EmbeddingProvider } from "./types.js";
import { createWordvecEmbeddingProvider } from "./wordvec/wordvecEmbedding.js";

type Settings = CairnConfig["embeddings"];

/** The `embeddings` section; the transformers-only settings may be left out. */
export type EmbeddingSettings = Omit<Settings, "dtype" | "batchSize"> & Partial<Pick<Settings, "dtype" | "batchSize">>;

/**
 * The configured embedding provider. `modelsDir` is where `cairn embeddings download` puts models
 * for `transformers`: `<CAIRN_HOME>/models` unless the caller knows another memory root.
 */
export function createEmbeddingProvider(
  config: EmbeddingSettings,
  options: { modelsDir?: string } = {},
): EmbeddingProvider {
  const { dimensions } = config;
  switch (config.provider) {
    case "hashed":
      return createHashedEmbeddingProvider({ dimensions });
    case "wordvec":
      return createWordvecEmbeddingProvider({ dimensions, ...(config.model ? { path: config.model } : {}) });
    case "openai":
      return new OpenAiEmbeddingProvider({
        baseUrl: config.baseUrl ?? defaultEmbeddingBaseUrls.openai,
        model: config.model ?? defaultEmbeddingModels.openai,
        dimensions,
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      });
    case "ollama":
      return new OllamaEmbeddingProvider({
        baseUrl: config.baseUrl ?? defaultEmbeddingBaseUrls.ollama,
        model: config.model ?? defaultEmbeddingModels.ollama,
        dimensions,
      });
    case "transformers":
      return new TransformersEmbeddingProvider({
        model: config.model ?? defaultEmbeddingModels.transformers,
        modelsDir: options.modelsDir ?? cairnPaths(cairnHome()).models,
        dimensions,
        dtype: config.dtype ?? transformersDefaults.dtype,
        batchSize: config.batchSize ?? transformersDefaults.batchSize,
      });
  }
}
