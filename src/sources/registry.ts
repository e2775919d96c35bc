import { homedir } from "node:os";
import type { ScanTarget } from "../collection/scanner.js";
import type { SourceAdapter } from "./adapter.js";
import { claudeCodeAdapter } from "./claudeCode.js";
import { codexAdapter } from "./codex.js";
import { geminiAdapter } from "./gemini.js";
import { opencodeAdapter } from "./opencode.js";
import { ompAdapter, piAdapter } from "./pi.js";
import type { AgentName } from "./types.js";

export const adapters: readonly SourceAdapter[] = [
  codexAdapter,
  claudeCodeAdapter,
  piAdapter,
  ompAdapter,
  geminiAdapter,
  opencodeAdapter,
];

export type SourceAgent = Exclude<AgentName, "push">;

/**
 * Where to look for each agent: explicit roots (flags, then config) replace an agent's defaults;
 * otherwise the agent's own environment variables and home layout decide.
 */
export function scanTargets(options: {
  env?: NodeJS.ProcessEnv;
  home?: string;
  configured?: Partial<Record<SourceAgent, string[] | undefined>>;
  overrides?: Partial<Record<SourceAgent, string[]>>;
  only?: SourceAgent[];
}): ScanTarget[] {
  const env = options.env ?? process.env;
  const home = options.home ?? homedir();
  return adapters
    .filter((adapter) => !options.only || options.only.includes(adapter.agent as SourceAgent))
    .map((adapter) => {
      const agent = adapter.agent as SourceAgent;
      const roots = options.overrides?.[agent] ?? options.configured?.[agent] ?? adapter.defaultRoots(env, home);
      return { adapter, roots };
    });
}
