/**
 * The LLM contract. Phase 1, phase 2 and the fact pipeline depend on this file only; concrete
 * providers (HTTP APIs, agent CLIs, offline) implement it.
 */
export interface LlmRequest {
  /** Instructions. Untrusted text never goes here: it belongs in `prompt`, quoted as data. */
  system: string;
  prompt: string;
  /** When set, the answer must be one JSON object matching this JSON Schema. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  maxOutputTokens?: number;
  temperature?: number;
  /** Overrides the provider's configured timeout for this call. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Token usage as reported. Unknown stays undefined (never 0). */
export interface LlmUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface LlmResult {
  /** The raw answer text (JSON text when a schema was requested; parsing is the caller's job). */
  text: string;
  usage: LlmUsage;
  provider: string;
  model: string;
  /** Options the provider could not honour (e.g. no native JSON-schema mode), as messages. */
  warnings: string[];
}

export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  generate(request: LlmRequest): Promise<LlmResult>;
  /** Cheap reachability check (no generation). Never throws. */
  available(): Promise<boolean>;
}

export { ProviderError, type ProviderErrorKind } from "../providerError.js";
