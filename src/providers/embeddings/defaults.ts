/**
 * Default models and endpoints per embedding provider, used when config leaves them unset (the
 * embedding side of llm/defaults.ts). The models are each vendor's small general-purpose one.
 */
export const defaultEmbeddingModels = {
  openai: "text-embedding-3-small",
  ollama: "nomic-embed-text",
  // 384 dimensions (embeddings.dimensions' default), with q8 and fp32 ONNX files.
  transformers: "Xenova/all-MiniLM-L6-v2",
} as const;

/** Where `cairn embeddings download` fetches models from unless `--hub` or HF_ENDPOINT says otherwise. */
export const DEFAULT_MODEL_HUB = "https://huggingface.co";

export const defaultEmbeddingBaseUrls = {
  openai: "https://api.openai.com",
  ollama: "http://127.0.0.1:11434",
} as const;

/** An embedding call is one batch of short texts; longer than this means the server is stuck. */
export const DEFAULT_EMBEDDING_TIMEOUT_MS = 30_000;

/** Reachability checks must not slow `cairn doctor` or startup down noticeably. */
export const EMBEDDING_AVAILABLE_TIMEOUT_MS = 3_000;
