import { postJson, toUnitVectors } from "./postJson.js";
import type { EmbeddingProvider } from "./types.js";

export interface HttpEmbeddingOptions {
  baseUrl: string;
  model: string;
  dimensions: number;
  apiKey?: string;
  timeoutMs?: number;
}

/** Any OpenAI-compatible `POST {baseUrl}/v1/embeddings` (OpenAI, llama.cpp, vLLM, LM Studio). */
export function createOpenAiEmbeddingProvider(options: HttpEmbeddingOptions): EmbeddingProvider {
  const url = `${options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/embeddings`;
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const embed = async (texts: string[]) => {
    if (texts.length === 0) return [];
    const answer = (await postJson({
      provider: "openai-embeddings",
      url,
      headers,
      body: { model: options.model, input: texts, dimensions: options.dimensions, encoding_format: "float" },
      timeoutMs: options.timeoutMs ?? 30_000,
    })) as { data?: { index: number; embedding: number[] }[] };
    const data = [...(answer.data ?? [])].sort((a, b) => a.index - b.index);
    return toUnitVectors(
      "openai-embeddings",
      data.map((d) => d.embedding),
      texts.length,
    );
  };
  return {
    name: "openai",
    model: options.model,
    dimensions: options.dimensions,
    embed,
    async available() {
      try {
        await embed(["ping"]);
        return true;
      } catch {
        return false;
      }
    },
  };
}
