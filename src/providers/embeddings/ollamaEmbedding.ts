import type { HttpEmbeddingOptions } from "./openaiEmbedding.js";
import { postJson, toUnitVectors } from "./postJson.js";
import type { EmbeddingProvider } from "./types.js";

/** Ollama's `POST {baseUrl}/api/embed` (batch input; `embeddings` in order). */
export function createOllamaEmbeddingProvider(options: HttpEmbeddingOptions): EmbeddingProvider {
  const base = options.baseUrl.replace(/\/+$/, "");
  return {
    name: "ollama",
    model: options.model,
    dimensions: options.dimensions,
    async embed(texts) {
      if (texts.length === 0) return [];
      const answer = (await postJson({
        provider: "ollama-embeddings",
        url: `${base}/api/embed`,
        body: { model: options.model, input: texts, truncate: true },
        timeoutMs: options.timeoutMs ?? 30_000,
      })) as { embeddings?: number[][] };
      return toUnitVectors("ollama-embeddings", answer.embeddings, texts.length);
    },
    async available() {
      try {
        const response = await fetch(`${base}/api/tags`, { signal: AbortSignal.timeout(3000) });
        return response.ok;
      } catch {
        return false;
      }
    },
  };
}
