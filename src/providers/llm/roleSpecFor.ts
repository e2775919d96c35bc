import type { LlmRoleSpec } from "./createLlmProvider.js";
import { type ConcreteProviderName, defaultBaseUrls, defaultModels } from "./defaults.js";
import { ollamaBaseUrlFromHost } from "./ollama.js";

/** The settings of one role as configured (config file, CAIRN_* variables and flags already merged). */
export interface RoleFields {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  timeoutMs: number;
}

/** A non-empty, trimmed environment value, or undefined. */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * The full spec for a chosen provider: configured fields first, then the vendor's standard variables
 * (OPENAI_API_KEY / OPENAI_BASE_URL, ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL, OLLAMA_HOST), then defaults.
 */
export function roleSpecFor(provider: ConcreteProviderName, role: RoleFields, env: NodeJS.ProcessEnv): LlmRoleSpec {
  const spec: LlmRoleSpec = { provider, model: role.model ?? defaultModels[provider], timeoutMs: role.timeoutMs };
  if (provider === "openai") {
    spec.apiKey = role.apiKey ?? envValue(env, "OPENAI_API_KEY");
    spec.baseUrl = role.baseUrl ?? envValue(env, "OPENAI_BASE_URL") ?? defaultBaseUrls.openai;
  } else if (provider === "anthropic") {
    spec.apiKey = role.apiKey ?? envValue(env, "ANTHROPIC_API_KEY");
    spec.baseUrl = role.baseUrl ?? envValue(env, "ANTHROPIC_BASE_URL") ?? defaultBaseUrls.anthropic;
  } else if (provider === "ollama") {
    spec.baseUrl = role.baseUrl ?? ollamaBaseUrlFromHost(env.OLLAMA_HOST) ?? defaultBaseUrls.ollama;
  }
  if (spec.apiKey === undefined) delete spec.apiKey;
  return spec;
}

/** What is missing for a spec to work, said so `cairn doctor` can tell the user what to set. */
export function missingSetting(spec: LlmRoleSpec, label: string): string | undefined {
  if (spec.apiKey) return undefined;
  if (spec.provider === "anthropic") return `no API key: set ANTHROPIC_API_KEY or ${label}.apiKey`;
  // OpenAI-compatible local servers (llama.cpp, vLLM, LM Studio) need no key; api.openai.com does.
  if (spec.provider === "openai" && spec.baseUrl === defaultBaseUrls.openai) {
    return `no API key: set OPENAI_API_KEY or ${label}.apiKey`;
  }
  return undefined;
}
