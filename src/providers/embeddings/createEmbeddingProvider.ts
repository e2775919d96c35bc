import type { CairnConfig } from "../../config/schema.js";
import { CairnError } from "../../util/errors.js";
import { createHashedEmbeddingProvider } from "./hashedEmbedding.js";
import { createOllamaEmbeddingProvider } from "./ollamaEmbedding.js";
import { createOpenAiEmbeddingProvider } from "./openaiEmbedding.js";
import { createTransformersEmbeddingProvider } from "./transformersEmbedding.js";
import type { EmbeddingProvider } from "./types.js";

/** The configured embedding provider; `hashed` needs nothing and is the default. */
export function createEmbeddingProvider(config: CairnConfig["embeddings"]): EmbeddingProvider {
  const { dimensions } = config;
  switch (config.provider) {
    case "hashed":
      return createHashedEmbeddingProvider({ dimensions });
    case "openai":
      return createOpenAiEmbeddingProvider({
        baseUrl: config.baseUrl ?? "https://api.openai.com",
        model: config.model ?? "text-embedding-3-small",
        dimensions,
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      });
    case "ollama":
      return createOllamaEmbeddingProvider({
        baseUrl: config.baseUrl ?? "http://127.0.0.1:11434",
        model: config.model ?? "nomic-embed-text",
        dimensions,
      });
    case "transformers":
      if (!config.model) {
        throw new CairnError("config_invalid", "embeddings.model must name a local model directory for transformers");
      }
      return createTransformersEmbeddingProvider({ modelPath: config.model, dimensions });
  }
}
