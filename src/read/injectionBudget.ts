import { fitsTokens } from "../text/tokens.js";
import { CairnError } from "../util/errors.js";

/**
 * Claude Code caps hook output that goes into the model's context (plain stdout and
 * `hookSpecificOutput.additionalContext`) at 10,000 characters; anything longer is saved to a file
 * and the model sees only a short preview with the file's path.
 * See "Hooks reference", https://code.claude.com/docs/en/hooks
 */
export const CLAUDE_CODE_HOOK_OUTPUT_CAP = 10_000;
// Room for the hook JSON around the text ({"hookSpecificOutput":...}, ~70 characters) and for
// whatever Claude Code adds when it wraps the context.
const CLAUDE_CODE_MARGIN = 500;

/** Agents `cairn inject --agent` accepts. Only Claude Code documents a cap on injected text. */
export const INJECTION_AGENTS = ["claude-code", "codex", "pi", "gemini", "opencode", "generic"] as const;

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
 * The budget for an agent. Claude Code counts JavaScript string length; cairn measures the text
 * JSON-escaped, the form it takes in the hook's stdout, which is never shorter than the text, so both
 * stdout and `additionalContext` stay under the cap. Agents without a known cap keep the token budget.
 */
export function injectionBudget(agent: string, tokenLimit: number): InjectionBudget {
  if (agent === "claude-code") {
    const limit = CLAUDE_CODE_HOOK_OUTPUT_CAP - CLAUDE_CODE_MARGIN;
    return {
      agent,
      unit: "chars",
      limit,
      agentCap: CLAUDE_CODE_HOOK_OUTPUT_CAP,
      fits: (text) => text.length <= limit && JSON.stringify(text).length - 2 <= limit,
    };
  }
  return { agent, unit: "tokens", limit: tokenLimit, fits: (summaries) => fitsTokens(summaries, tokenLimit) };
}

/** The budget for a user-given agent name (`cairn inject --agent`); an unknown name is an error. */
export function injectionBudgetFor(agent: string, tokenLimit: number): InjectionBudget {
  if (!(INJECTION_AGENTS as readonly string[]).includes(agent)) {
    throw new CairnError(
      "unknown_agent",
      `unknown agent '${agent}'; use one of ${INJECTION_AGENTS.join(", ")} (generic: the token budget)`,
    );
  }
  return injectionBudget(agent, tokenLimit);
}

/** The smallest character budget among the agents, for warnings about summaries that cannot fit it. */
export function smallestCharBudget(tokenLimit: number): InjectionBudget {
  const budgets = INJECTION_AGENTS.map((agent) => injectionBudget(agent, tokenLimit)).filter((b) => b.unit === "chars");
  return budgets.reduce((a, b) => (b.limit < a.limit ? b : a));
}
