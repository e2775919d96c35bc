/**
 * Environment variables that override the YAML file, as [variable, config path, type].
 * Flags override both. Kept as data so `cairn config list` and the README can show the same table.
 */
export const envOverrides: ReadonlyArray<readonly [string, string, "string" | "number" | "boolean"]> = [
  ["CAIRN_MEMORIES_ENABLED", "memories.enabled", "boolean"],
  ["CAIRN_LLM_PROVIDER", "llm.provider", "string"],
  ["CAIRN_LLM_BASE_URL", "llm.baseUrl", "string"],
  ["CAIRN_LLM_MODEL", "llm.model", "string"],
  ["CAIRN_LLM_API_KEY", "llm.apiKey", "string"],
  ["CAIRN_SMOL_PROVIDER", "smol.provider", "string"],
  ["CAIRN_SMOL_BASE_URL", "smol.baseUrl", "string"],
  ["CAIRN_SMOL_MODEL", "smol.model", "string"],
  ["CAIRN_SMOL_API_KEY", "smol.apiKey", "string"],
  ["CAIRN_EMBEDDINGS_PROVIDER", "embeddings.provider", "string"],
  ["CAIRN_EMBEDDINGS_MODEL", "embeddings.model", "string"],
  ["CAIRN_EMBEDDINGS_BASE_URL", "embeddings.baseUrl", "string"],
  ["CAIRN_SERVER_TOKEN", "server.token", "string"],
  ["CAIRN_RESIDENT_IDLE_MINUTES", "resident.idleMinutes", "number"],
];

/**
 * The variables that carry credentials. A key given only in the environment is never written anywhere:
 * caches and reports leave these out and read them from the environment again.
 */
export const secretEnvVariables: ReadonlySet<string> = new Set([
  "CAIRN_LLM_API_KEY",
  "CAIRN_SMOL_API_KEY",
  "CAIRN_SERVER_TOKEN",
]);
