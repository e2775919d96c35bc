/**
 * Default models and endpoints per provider, used when config and environment leave them unset.
 *
 * Memory extraction runs once per session and consolidation a few times a day, so the defaults are
 * the cheap, fast tier of each vendor that still follows a JSON schema reliably. For the agent CLIs
 * the user's own CLI configuration decides unless a model is set: the Claude Code alias `haiku`
 * keeps subscription quota for real work, while Codex model names depend on how the user signed in,
 * so cairn does not guess one.
 */
export const defaultModels = {
  openai: "gpt-5-mini",
  anthropic: "claude-haiku-4-5",
  ollama: "qwen2.5:7b",
  "claude-cli": "haiku",
  /** No `-m` is passed: the model configured in ~/.codex/config.toml is used. */
  "codex-cli": "codex-default",
} as const;

export const defaultBaseUrls = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
  ollama: "http://127.0.0.1:11434",
} as const;

/** Reachability checks must not slow `cairn doctor` or startup down noticeably. */
export const AVAILABLE_TIMEOUT_MS = 3_000;

/** The name a provider reports; `auto` and `offline` are resolved before a provider exists. */
export type ConcreteProviderName = keyof typeof defaultModels;

/** Same as the config schema's default for `llm.timeoutMs`, for providers built without config. */
export const DEFAULT_TIMEOUT_MS = 120_000;
