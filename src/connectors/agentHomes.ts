import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The user's home as the agents see it (HOME first, so tests and sandboxes can move it). */
export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME?.trim() || homedir();
}

/** Claude Code's config directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.CLAUDE_CONFIG_DIR?.trim();
  return fromEnv ? resolve(fromEnv) : join(userHome(env), ".claude");
}

/**
 * Claude Code's user-scope state file, where `claude mcp add --scope user` keeps `mcpServers`:
 * `~/.claude.json`, or `.claude.json` inside `$CLAUDE_CONFIG_DIR` when that is set.
 */
export function claudeUserStateFile(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.CLAUDE_CONFIG_DIR?.trim();
  return fromEnv ? join(resolve(fromEnv), ".claude.json") : join(userHome(env), ".claude.json");
}

/** Codex's home: `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.CODEX_HOME?.trim();
  return fromEnv ? resolve(fromEnv) : join(userHome(env), ".codex");
}

/** Gemini CLI's user folder: `$GEMINI_CLI_HOME/.gemini` when that is set, else `~/.gemini`. */
export function geminiDir(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.GEMINI_CLI_HOME?.trim();
  return join(fromEnv ? resolve(fromEnv) : userHome(env), ".gemini");
}

/** OpenCode's global config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`. */
export function opencodeConfigDir(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.XDG_CONFIG_HOME?.trim();
  return join(fromEnv ? resolve(fromEnv) : join(userHome(env), ".config"), "opencode");
}
