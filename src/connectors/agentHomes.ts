import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { claudeCode } from "../agents/claudeCode/descriptor.js";
import { codex } from "../agents/codex/descriptor.js";
import { gemini } from "../agents/gemini/descriptor.js";
import { omp } from "../agents/omp/descriptor.js";
import { opencode } from "../agents/opencode/descriptor.js";
import { pi } from "../agents/pi/descriptor.js";

// Each agent's folder is its descriptor's `configFolder` (src/agents/<agent>/descriptor.ts), with the
// variables that move it; the scan reads the same descriptor, so the two never disagree.

/** The user's home as the agents see it (HOME first, so tests and sandboxes can move it). */
export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME?.trim() || homedir();
}

/** Claude Code's config directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  return claudeCode.configFolder(env, userHome(env));
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
  return codex.configFolder(env, userHome(env));
}

/** Gemini CLI's user folder: `$GEMINI_CLI_HOME/.gemini` when that is set, else `~/.gemini`. */
export function geminiDir(env: NodeJS.ProcessEnv): string {
  return gemini.configFolder(env, userHome(env));
}

/** OpenCode's global config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`. */
export function opencodeConfigDir(env: NodeJS.ProcessEnv): string {
  return opencode.configFolder(env, userHome(env));
}

/** pi's folder: `$PI_CODING_AGENT_DIR` (a leading `~` expanded, as pi does), else `~/.pi/agent`. */
export function piAgentDir(env: NodeJS.ProcessEnv): string {
  return pi.configFolder(env, userHome(env));
}

/** oh-my-pi's folder: `$OMP_CODING_AGENT_DIR` (`~` expanded), else `~/.omp/agent`. */
export function ompAgentDir(env: NodeJS.ProcessEnv): string {
  return omp.configFolder(env, userHome(env));
}
