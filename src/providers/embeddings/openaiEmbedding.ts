import { redactText } from "../../redact/redact.js";
import { postJson } from "../http.js";
import { DEFAULT_EMBEDDING_TIMEOUT_MS } from "./defaults.js";
import { toUnitVectors } from "./toUnitVectors.js";
import type { EmbeddingProvider } from "./types.js";

export interface HttpEmbeddingOptions {
  baseUrl: string;
  model: string;
  dimensions: number;
  apiKey?: string;
  timeoutMs?: number;
}

/** Any OpenAI-compatible `POST {baseUrl}/v1/embeddings` (OpenAI, llama.cpp, vLLM, LM Studio). */
export class OpenAiEmbeddingProvider implements EmbeddingProvider {
  readonly name = "openai";
  readonly model: string;
  readonly dimensions: number;
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: HttpEmbeddingOptions) {
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.url = `${options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/embeddings`;
    this.apiKey = options.apiKey || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS;
  }

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const answer = (await postJson({
      provider: "openai-embeddings",
      url: this.url,
      headers: this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {},
      // The texts leave this machine: redacted here whoever asks (a recall query is a user's own words).
      body: { model: this.model, input: texts.map(redactText), dimensions: this.dimensions, encoding_format: "float" },
      timeoutMs: this.timeoutMs,
      signal: options.signal,
      secrets: [this.apiKey],
    })) as { data?: { index: number; embedding: number[] }[] };
    const data = [...(answer.data ?? [])].sort((a, b) => a.index - b.index);
    return toUnitVectors(
      "openai-embeddings",
      data.map((d) => d.embedding),
      texts.length,
      this.dimensions,
    );
  }

  async available(): Promise<boolean> {
    try {
      await this.embed(["ping"]);
      return true;
    } catch {
      return false;
    }
  }
}
