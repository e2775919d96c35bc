import type { CairnConfig } from "../../config/schema.js";
import { describeRoleSpec, type LlmRoleSpec } from "./createLlmProvider.js";
import { type ConcreteProviderName, defaultBaseUrls, defaultModels } from "./defaults.js";
import { findOnPath } from "./findOnPath.js";
import { OllamaProvider, ollamaBaseUrlFromHost } from "./ollama.js";
import { envValue, missingSetting, type RoleFields, roleSpecFor } from "./roleSpecFor.js";

export interface DetectLlmOptions {
  /** false skips the Ollama probe (tests, runs that must not touch the network). Default true. */
  probeOllama?: boolean;
  /** Replaces the probe: the installed model names, or undefined when Ollama does not answer. */
  listOllamaModels?: (baseUrl: string) => Promise<string[] | undefined>;
  /** Kept short (default 500 ms) so that startup on a machine without Ollama does not wait. */
  ollamaTimeoutMs?: number;
}

/** A resolved role, or null for offline, with the one-line reason `cairn doctor` prints. */
export interface DetectedRole {
  spec: LlmRoleSpec | null;
  reason: string;
}

/**
 * Resolves one role. An explicit provider is used as configured. For `auto`, in order: explicit
 * config fields (a base URL or API key), then OPENAI_API_KEY, ANTHROPIC_API_KEY, a reachable
 * Ollama, `claude` on PATH, `codex` on PATH, and finally offline. A configured model narrows the
 * search to providers that can serve it (a `claude-*` model is not sent to OpenAI).
 */
export async function detectLlmRole(
  role: CairnConfig["llm"],
  env: NodeJS.ProcessEnv,
  options: DetectLlmOptions = {},
  label = "llm",
): Promise<DetectedRole> {
  if (role.provider === "offline") return { spec: null, reason: `${label}.provider is offline → offline` };
  if (role.provider !== "auto") {
    return explained(roleSpecFor(role.provider, role, env), `${label}.provider is ${role.provider}`, label);
  }
  return fromConfigFields(role, env, label) ?? (await fromEnvironment(role, env, options, label));
}

function fromConfigFields(role: RoleFields, env: NodeJS.ProcessEnv, label: string): DetectedRole | undefined {
  if (role.baseUrl) {
    return explained(roleSpecFor(providerForBaseUrl(role.baseUrl), role, env), `${label}.baseUrl is set`, label);
  }
  if (role.apiKey) {
    const provider = role.apiKey.startsWith("sk-ant-") ? "anthropic" : "openai";
    return explained(roleSpecFor(provider, role, env), `${label}.apiKey is set`, label);
  }
  return undefined;
}

async function fromEnvironment(
  role: RoleFields,
  env: NodeJS.ProcessEnv,
  options: DetectLlmOptions,
  label: string,
): Promise<DetectedRole> {
  const serves = modelServedBy(role.model, env);
  const found = (provider: ConcreteProviderName, why: string): DetectedRole =>
    explained(roleSpecFor(provider, role, env), why, label);

  if (serves("openai") && envValue(env, "OPENAI_API_KEY")) return found("openai", "OPENAI_API_KEY is set");
  if (serves("anthropic") && envValue(env, "ANTHROPIC_API_KEY")) return found("anthropic", "ANTHROPIC_API_KEY is set");
  const ollamaUrl = ollamaBaseUrlFromHost(env.OLLAMA_HOST) ?? defaultBaseUrls.ollama;
  const probe = serves("ollama") && options.probeOllama !== false;
  let ollamaNote = probe ? `no Ollama at ${ollamaUrl}` : "Ollama not probed";
  if (probe) {
    const installed = await listOllamaModels(ollamaUrl, options);
    const model = role.model ?? pickOllamaModel(installed ?? []);
    if (installed !== undefined && model !== undefined) {
      return explained(roleSpecFor("ollama", { ...role, model }, env), `Ollama answers at ${ollamaUrl}`, label);
    }
    if (installed !== undefined) ollamaNote = `Ollama at ${ollamaUrl} has no models`;
  }
  if (serves("claude-cli") && findOnPath("claude", env)) return found("claude-cli", "claude is on PATH");
  if (serves("codex-cli") && findOnPath("codex", env)) return found("codex-cli", "codex is on PATH");
  const wanted = role.model ? `for ${label}.model ${role.model} ` : "";
  return {
    spec: null,
    reason: `no LLM ${wanted}found (no OPENAI_API_KEY or ANTHROPIC_API_KEY, ${ollamaNote}, no claude or codex on PATH) → offline`,
  };
}

function explained(spec: LlmRoleSpec, why: string, label: string): DetectedRole {
  const missing = missingSetting(spec, label);
  return { spec, reason: `${why} → ${describeRoleSpec(spec)}${missing ? `; ${missing}` : ""}` };
}

/**
 * Which providers can serve a configured model: Claude models go to Anthropic or Claude Code, OpenAI
 * models to OpenAI or Codex, anything else (an open-weights model) to Ollama or to an
 * OpenAI-compatible server named by OPENAI_BASE_URL.
 */
function modelServedBy(model: string | undefined, env: NodeJS.ProcessEnv) {
  return (provider: ConcreteProviderName): boolean => {
    if (model === undefined) return true;
    const name = model.replace(/^.*\//, "").toLowerCase();
    if (name.startsWith("claude") || ["haiku", "sonnet", "opus"].includes(name)) {
      return provider === "anthropic" || provider === "claude-cli";
    }
    if (/^(gpt|o\d|codex|chatgpt)/.test(name)) return provider === "openai" || provider === "codex-cli";
    if (provider === "openai") return envValue(env, "OPENAI_BASE_URL") !== undefined;
    return provider === "ollama";
  };
}

/** A base URL set without a provider: Anthropic and Ollama are recognisable, anything else speaks OpenAI's format. */
export function providerForBaseUrl(baseUrl: string): ConcreteProviderName {
  try {
    const url = new URL(baseUrl);
    if (url.hostname.includes("anthropic")) return "anthropic";
    if (url.port === "11434" || /\/api\/?$/.test(url.pathname)) return "ollama";
  } catch {
    // An unparsable URL is reported by the provider on first use, with the provider's name.
  }
  return "openai";
}

async function listOllamaModels(baseUrl: string, options: DetectLlmOptions): Promise<string[] | undefined> {
  if (options.listOllamaModels) return options.listOllamaModels(baseUrl);
  return new OllamaProvider({ baseUrl }).listModels(Math.min(options.ollamaTimeoutMs ?? 500, 500));
}

/** The default model when it is installed (with or without the implicit :latest tag), else the first one. */
function pickOllamaModel(installed: string[]): string | undefined {
  const preferred = installed.find(
    (name) => name === defaultModels.ollama || name === `${defaultModels.ollama}:latest`,
  );
  return preferred ?? installed[0];
}
