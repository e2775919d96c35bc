import { agentDescriptor, agentIds, agents } from "../agents/registry.js";
import { fitsTokens } from "../text/tokens.js";
import { CairnError } from "../util/errors.js";

/**
 * Agents `cairn inject --agent` accepts: every registered agent (each descriptor's `injection` says
 * whether it documents a cap) and `generic`, the token budget.
 */
export const INJECTION_AGENTS: readonly string[] = [...agentIds, "generic"];

export interface InjectionBudget {
  agent: string;
  /**
   * `chars`: the whole injected text (guidance and memory), counted as the agent counts it.
   * `tokens`: the memory summaries only, as `memories.summaryInjectionTokenLimit` always meant.
   */
  unit: "chars" | "tokens";
  limit: number;
  /** The agent's own hard cap, when it has one. */
  agentCap?: number;
  /** True when `measured` (the whole text for `chars`, the summaries for `tokens`) is within the limit. */
  fits(measured: string): boolean;
}

/**
 * The budget for an agent. An agent with a character cap (Claude Code) counts JavaScript string length;
 * cairn measures the text JSON-escaped, the form it takes in a hook's stdout, which is never shorter
 * than the text, so both stdout and `additionalContext` stay under the cap. Agents without a known cap
 * keep the token budget.
 */
export function injectionBudget(agent: string, tokenLimit: number): InjectionBudget {
  const injection = agentDescriptor(agent)?.injection;
  if (injection?.unit === "chars") {
    const limit = injection.cap - injection.margin;
    return {
      agent,
      unit: "chars",
      limit,
      agentCap: injection.cap,
      fits: (text) => text.length <= limit && JSON.stringify(text).length - 2 <= limit,
    };
  }
  return { agent, unit: "tokens", limit: tokenLimit, fits: (summaries) => fitsTokens(summaries, tokenLimit) };
}

/** The budget for a user-given agent name (`cairn inject --agent`); an unknown name is an error. */
export function injectionBudgetFor(agent: string, tokenLimit: number): InjectionBudget {
  if (!INJECTION_AGENTS.includes(agent)) {
    throw new CairnError(
      "unknown_agent",
      `unknown agent '${agent}'; use one of ${INJECTION_AGENTS.join(", ")} (generic: the token budget)`,
    );
  }
  return injectionBudget(agent, tokenLimit);
}

/** The smallest character budget among the agents, for warnings about summaries that cannot fit it. */
export function smallestCharBudget(tokenLimit: number): InjectionBudget {
  const budgets = agents.map((agent) => injectionBudget(agent.name, tokenLimit)).filter((b) => b.unit === "chars");
  return budgets.reduce((a, b) => (b.limit < a.limit ? b : a));
}
