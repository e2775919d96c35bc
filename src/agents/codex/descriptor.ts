import { join } from "node:path";
import { folderFromEnv } from "../folderFromEnv.js";
import { NO_INJECTION_CAP } from "../noInjectionCap.js";
import type { AgentDescriptor } from "../types.js";

const configFolder = (env: NodeJS.ProcessEnv, home: string) =>
  folderFromEnv({ env, name: "CODEX_HOME", home }) ?? join(home, ".codex");

/** OpenAI's Codex CLI: config.toml, AGENTS.md and rollouts (`sessions/`, `archived_sessions/`) in its home. */
export const codex = {
  name: "codex",
  displayName: "Codex",
  environment: [{ name: "CODEX_HOME", means: "Codex's home (default ~/.codex): config.toml, AGENTS.md, sessions/" }],
  configFolder,
  sessionFolders: (env, home) => [configFolder(env, home)],
  injection: NO_INJECTION_CAP,
  // Every tool result, MCP included, is cut to the model's truncation policy, 10,000 bytes for most
  // (TruncationPolicy::Bytes(10_000); some versions also 256 lines), head and tail kept, middle dropped.
  mcp: {
    clientName: "codex-mcp-client",
    toolText: { bytes: 9_000, lines: 250, doc: "https://github.com/openai/codex/issues/6544" },
  },
  install: { connector: true },
  docs: ["https://developers.openai.com/codex/mcp", "https://developers.openai.com/codex/guides/agents-md"],
} as const satisfies AgentDescriptor;
