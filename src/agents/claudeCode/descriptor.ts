import { join } from "node:path";
import { folderFromEnv } from "../folderFromEnv.js";
import type { AgentDescriptor } from "../types.js";

const configFolder = (env: NodeJS.ProcessEnv, home: string) =>
  folderFromEnv({ env, name: "CLAUDE_CONFIG_DIR", home }) ?? join(home, ".claude");

/** Anthropic's Claude Code: settings, hooks and transcripts (`projects/`) in one folder. */
export const claudeCode = {
  name: "claude-code",
  displayName: "Claude Code",
  environment: [
    { name: "CLAUDE_CONFIG_DIR", means: "Claude Code's folder (default ~/.claude): settings.json, projects/" },
  ],
  configFolder,
  sessionFolders: (env, home) => [configFolder(env, home)],
  // Hook output entering the context (stdout and additionalContext) is capped at 10,000 characters;
  // longer output is saved to a file and the model sees a preview. 500 are kept for the hook's JSON
  // envelope and Claude Code's own wrapping.
  injection: { unit: "chars", cap: 10_000, margin: 500, doc: "https://code.claude.com/docs/en/hooks" },
  // An MCP result is kept whole up to 50,000 characters, refused above 25,000 tokens
  // (MAX_MCP_OUTPUT_TOKENS), warned about above 10,000: 40,000 bytes stay under all three.
  mcp: {
    clientName: "claude-code",
    toolText: { bytes: 40_000, lines: 100_000, doc: "https://code.claude.com/docs/en/mcp" },
  },
  install: { connector: true },
  docs: ["https://code.claude.com/docs/en/hooks", "https://code.claude.com/docs/en/mcp"],
} as const satisfies AgentDescriptor;
