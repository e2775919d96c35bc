import type { CairnConfig } from "../../config/schema.js";
import type { LlmProvider } from "../../providers/llm/types.js";
import { CairnError } from "../../util/errors.js";
import { agentConsolidator } from "./consolidators/agentConsolidator.js";
import { llmConsolidator } from "./consolidators/llmConsolidator.js";
import { offlineConsolidator } from "./consolidators/offlineConsolidator.js";
import type { Consolidator } from "./consolidators/types.js";

/**
 * The consolidation mode in force: `offline` and `agent` as configured; `llm` needs the small model
 * role and fails with a clear error without one; `auto` takes the small model when there is one, else
 * offline. `smol` is asked for only when the mode needs it, so offline and agent never resolve a model.
 */
export async function selectConsolidator(
  config: CairnConfig,
  smol: () => Promise<LlmProvider | null>,
): Promise<Consolidator> {
  const { mode, agentCli, maxInputTokens, timeoutMs } = config.consolidation;
  const summaryTokenLimit = config.memories.summaryInjectionTokenLimit;
  if (mode === "offline") return offlineConsolidator;
  if (mode === "agent") return agentConsolidator({ cli: agentCli, timeoutMs, summaryTokenLimit });
  const model = await smol();
  if (model) return llmConsolidator(model, { maxInputTokens, summaryTokenLimit });
  if (mode === "llm") {
    throw new CairnError(
      "no_provider",
      "consolidation.mode is llm but no model is configured or detected; see 'cairn doctor'",
    );
  }
  return offlineConsolidator;
}
