import { redactText } from "../../redact/redact.js";
import { postJson, probeJson } from "../http.js";
import { DEFAULT_EMBEDDING_TIMEOUT_MS, EMBEDDING_AVAILABLE_TIMEOUT_MS } from "./defaults.js";
import type { HttpEmbeddingOptions } from "./openaiEmbedding.js";
import { toUnitVectors } from "./toUnitVectors.js";
import type { EmbeddingProvider } from "./types.js";

/** Ollama's `POST {baseUrl}/api/embed` (batch input; `embeddings` in order). */
export class OllamaEmbeddingProvider implements EmbeddingProvider {
  readonly name = "ollama";
  readonly model: string;
  readonly dimensions: number;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(options: Omit<HttpEmbeddingOptions, "apiKey">) {
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS;
  }

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const answer = (await postJson({
      provider: "ollama-embeddings",
      url: `${this.baseUrl}/api/embed`,
      // The texts leave this machine: redacted here whoever asks (a recall query is a user's own words).
      body: { model: this.model, input: texts.map(redactText), truncate: true },
      timeoutMs: this.timeoutMs,
      signal: options.signal,
    })) as { embeddings?: number[][] };
    return toUnitVectors("ollama-embeddings", answer.embeddings, texts.length, this.dimensions);
  }

  async available(): Promise<boolean> {
    return (
      (await probeJson({ url: `${this.baseUrl}/api/tags`, timeoutMs: EMBEDDING_AVAILABLE_TIMEOUT_MS })) !== undefined
    );
  }
}
