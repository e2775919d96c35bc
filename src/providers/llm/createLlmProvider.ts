import { withoutCredentials } from "../scrub.js";
import { AnthropicProvider } from "./anthropic.js";
import { ClaudeCliProvider } from "./claudeCli.js";
import { CodexCliProvider } from "./codexCli.js";
import { type ConcreteProviderName, defaultBaseUrls } from "./defaults.js";
import { OllamaProvider } from "./ollama.js";
import { OpenAiProvider } from "./openai.js";
import type { LlmProvider } from "./types.js";

/** A model role after resolution: which provider, and every setting it is built with. */
export interface LlmRoleSpec {
  provider: ConcreteProviderName;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  timeoutMs: number;
}

/** Builds the provider for a resolved role. `env` is the agent CLIs' environment (their PATH, their login). */
export function createLlmProvider(spec: LlmRoleSpec, env: NodeJS.ProcessEnv = process.env): LlmProvider {
  const { model, baseUrl, apiKey, timeoutMs } = spec;
  switch (spec.provider) {
    case "openai":
      return new OpenAiProvider({ model, baseUrl, apiKey, timeoutMs });
    case "anthropic":
      return new AnthropicProvider({ model, baseUrl, apiKey, timeoutMs });
    case "ollama":
      return new OllamaProvider({ model, baseUrl, timeoutMs });
    case "claude-cli":
      return new ClaudeCliProvider({ model, timeoutMs, env });
    case "codex-cli":
      return new CodexCliProvider({ model, timeoutMs, env });
  }
}

/** "anthropic (claude-haiku-4-5)", with the endpoint when it is not the vendor's default. */
export function describeRoleSpec(spec: LlmRoleSpec): string {
  const defaultUrl = (defaultBaseUrls as Record<string, string | undefined>)[spec.provider];
  // A base URL can carry credentials (`https://user:key@proxy`, `?api_key=`): shown without them.
  const where = spec.baseUrl && spec.baseUrl !== defaultUrl ? ` at ${withoutCredentials(spec.baseUrl)}` : "";
  return `${spec.provider} (${spec.model}${where})`;
}
