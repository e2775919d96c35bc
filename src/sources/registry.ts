import { homedir } from "node:os";
import { type AgentId, agents } from "../agents/registry.js";
import type { SourceAdapter } from "./adapter.js";
import { claudeCodeAdapter } from "./claudeCode.js";
import { codexAdapter } from "./codex.js";
import { geminiAdapter } from "./gemini.js";
import { opencodeAdapter } from "./opencode.js";
import { ompAdapter, piAdapter } from "./pi.js";

/** Each registered agent's adapter: a registered agent without one does not compile. */
const adapterOf: { readonly [agent in AgentId]: SourceAdapter } = {
  codex: codexAdapter,
  "claude-code": claudeCodeAdapter,
  pi: piAdapter,
  omp: ompAdapter,
  gemini: geminiAdapter,
  opencode: opencodeAdapter,
};

/** The adapters, in the registry's order. */
export const adapters: readonly SourceAdapter[] = agents.map((agent) => adapterOf[agent.name]);

/** An agent whose sessions cairn reads from files (every registered agent; `push` arrives over HTTP). */
export type SourceAgent = AgentId;

/** One adapter and the roots a scan walks for it. */
export interface ScanTarget {
  adapter: SourceAdapter;
  roots: string[];
}

/**
 * Where to look for each agent: explicit roots (flags, then config) replace an agent's defaults;
 * otherwise the agent's own environment variables and home layout decide (its descriptor's
 * `sessionFolders`).
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
  return agents
    .filter((agent) => !options.only || options.only.includes(agent.name))
    .map((agent) => ({
      adapter: adapterOf[agent.name],
      roots: options.overrides?.[agent.name] ?? options.configured?.[agent.name] ?? agent.sessionFolders(env, home),
    }));
}
