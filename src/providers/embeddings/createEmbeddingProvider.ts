import type { CairnConfig } from "../../config/schema.js";
import { CairnError } from "../../util/errors.js";
import { defaultEmbeddingBaseUrls, defaultEmbeddingModels } from "./defaults.js";
import { createHashedEmbeddingProvider } from "./hashedEmbedding.js";
import { OllamaEmbeddingProvider } from "./ollamaEmbedding.js";
import { OpenAiEmbeddingProvider } from "./openaiEmbedding.js";
import { TransformersEmbeddingProvider } from "./transformersEmbedding.js";
import type { EmbeddingProvider } from "./types.js";
import { createWordvecEmbeddingProvider } from "./wordvec/wordvecEmbedding.js";

/** The configured embedding provider; `hashed` needs nothing and is the default. */
export function createEmbeddingProvider(config: CairnConfig["embeddings"]): EmbeddingProvider {
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
      if (!config.model) {
        throw new CairnError("config_invalid", "embeddings.model must name a local model directory for transformers");
      }
      return new TransformersEmbeddingProvider({ modelPath: config.model, dimensions });
  }
}
