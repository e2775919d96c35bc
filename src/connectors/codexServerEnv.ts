import { envOverrides } from "../config/envOverrides.js";

/**
 * Variables `cairn mcp` needs from Codex's environment. Codex starts a stdio MCP server with a short
 * default list (HOME, PATH, USER, LANG, TMPDIR, ...) plus the names in the server's `env_vars`, which it
 * forwards from its own environment (https://developers.openai.com/codex/mcp, "env_vars: environment
 * variables to allow and forward"). Listing names keeps keys out of config.toml: only `env` would
 * write values. Names that are unset in Codex's environment are simply not passed.
 */
const FIXED = [
  // Where things are: cairn's memory root, and the agents' homes the background run scans.
  "CAIRN_HOME",
  "CODEX_HOME",
  "CLAUDE_CONFIG_DIR",
  "GEMINI_CLI_HOME",
  "PI_CODING_AGENT_DIR",
  "OMP_CODING_AGENT_DIR",
  "OPENCODE_DB",
  "XDG_DATA_HOME",
  // cairn's own switches: its model runs set these so that their MCP servers start no pipeline run.
  "CAIRN_INTERNAL",
  "CAIRN_CONSOLIDATION",
  "CAIRN_DEBUG",
  // Model providers.
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "OLLAMA_HOST",
  // Network: proxies and extra certificate authorities, as Node and the provider CLIs read them.
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "all_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
];

/** FIXED plus every `CAIRN_*` setting (keys included), so a new setting is forwarded without an edit here. */
export function codexForwardedEnv(): string[] {
  return [...new Set([...FIXED, ...envOverrides.map(([name]) => name)])];
}
