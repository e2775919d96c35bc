import { errorMessage } from "../../util/errors.js";
import type { EmbeddingProvider, EmbeddingStatus } from "./types.js";

/**
 * What `cairn doctor` says about the embedding provider: the provider's own account when it has one
 * (a local model names its file), else the outcome of embedding one short text. Never throws.
 */
export async function embeddingStatus(provider: EmbeddingProvider): Promise<EmbeddingStatus> {
  if (provider.status) return provider.status();
  try {
    await provider.embed(["cairn doctor"]);
    return { ready: true, detail: `${provider.model} (${provider.dimensions} dimensions)` };
  } catch (error) {
    return { ready: false, detail: errorMessage(error).split("\n", 1)[0] ?? "" };
  }
}
