import type { CairnConfig } from "../../config/schema.js";
import { CairnError } from "../../util/errors.js";
import { createHashedEmbeddingProvider } from "./hashedEmbedding.js";
import type { EmbeddingProvider } from "./types.js";

/** The embedding provider the configuration names (the built-in hashed one by default). */
export function createEmbeddingProvider(config: CairnConfig["embeddings"], _env: NodeJS.ProcessEnv): EmbeddingProvider {
  if (config.provider === "hashed") return createHashedEmbeddingProvider({ dimensions: config.dimensions });
  throw new CairnError("config_invalid", `embeddings.provider ${config.provider} is not wired yet`);
}
