import type { SecretRule } from "../types.js";

/** Model providers: the keys a coding agent's user is most likely to paste. */
export const aiRules: SecretRule[] = [
  {
    name: "anthropic-api-key",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{20,512}/g,
    glued: true,
    keywords: ["sk-ant-"],
  },
  {
    name: "openai-api-key",
    family: "ai",
    pattern:
      /(?<![A-Za-z0-9])sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,512}|[A-Za-z0-9]{10,64}T3BlbkFJ[A-Za-z0-9_-]{10,64})/g,
    glued: true,
    keywords: ["sk-"],
  },
  {
    // Any other "sk-" key (OpenRouter sk-or-v1-, DeepSeek, legacy OpenAI, many proxies). Requiring
    // a digit keeps out hyphenated words such as "sk-learn-compatible-estimator-wrapper".
    name: "sk-api-key",
    family: "ai",
    pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,512}/g,
    keywords: ["sk-"],
    validate: (key) => /\d/.test(key),
  },
  {
    name: "huggingface-token",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])(?:hf_[A-Za-z0-9]{30,40}|api_org_[A-Za-z0-9]{30,40})(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["hf_", "api_org_"],
  },
  {
    name: "groq-api-key",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])gsk_[A-Za-z0-9]{40,64}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["gsk_"],
  },
  {
    name: "xai-api-key",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])xai-[A-Za-z0-9]{60,100}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["xai-"],
  },
  {
    name: "perplexity-api-key",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])pplx-[A-Za-z0-9]{40,64}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["pplx-"],
  },
  {
    name: "replicate-token",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])r8_[A-Za-z0-9]{37,40}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["r8_"],
  },
  {
    name: "langsmith-api-key",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["lsv2_"],
  },
  {
    name: "tavily-api-key",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["tvly-"],
  },
  {
    name: "pinecone-api-key",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])pcsk_[A-Za-z0-9_]{50,128}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["pcsk_"],
  },
  {
    name: "elevenlabs-api-key",
    family: "ai",
    pattern: /(?<![A-Za-z0-9])sk_[a-f0-9]{48}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["sk_"],
  },
];
