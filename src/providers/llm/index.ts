/** The LLM layer's public pieces: the contract, the providers, and role resolution. */

export { isRetryableStatus, type PostJsonOptions, postJson, probeJson } from "../http.js";
export { AnthropicProvider } from "./anthropic.js";
export { ClaudeCliProvider } from "./claudeCli.js";
export { CodexCliProvider } from "./codexCli.js";
export { createLlmProvider, describeRoleSpec, type LlmRoleSpec } from "./createLlmProvider.js";
export { type ConcreteProviderName, DEFAULT_TIMEOUT_MS, defaultBaseUrls, defaultModels } from "./defaults.js";
export { type DetectedRole, type DetectLlmOptions, detectLlmRole } from "./detect.js";
export { findOnPath } from "./findOnPath.js";
export { OllamaProvider, ollamaBaseUrlFromHost } from "./ollama.js";
export { OpenAiProvider } from "./openai.js";
export type { CliProviderOptions, HttpProviderOptions } from "./providerOptions.js";
export { type ResolvedLlm, type ResolveLlmOptions, resolveLlm } from "./roles.js";
export {
  type LlmProvider,
  type LlmRequest,
  type LlmResult,
  type LlmUsage,
  ProviderError,
  type ProviderErrorKind,
} from "./types.js";
