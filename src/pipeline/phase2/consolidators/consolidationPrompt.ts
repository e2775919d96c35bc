import { fillTemplate, loadPrompt } from "../../../prompts/template.js";

/**
 * A consolidation prompt (the model's system prompt or the agent's task) with the rules both share,
 * `consolidation_rules.md`: how to weigh the evidence, what each kind of knowledge looks like, and the
 * shape of MEMORY.md and memory_summary.md. One text, so the two modes cannot drift apart.
 */
export function consolidationPrompt(
  template: "consolidation_system.md" | "consolidation_agent.md",
  summaryTokenLimit: number,
  values: Record<string, string>,
): string {
  const rules = fillTemplate(loadPrompt("consolidation_rules.md"), {
    summary_token_limit: String(summaryTokenLimit),
  }).trim();
  return fillTemplate(loadPrompt(template), { ...values, rules });
}
