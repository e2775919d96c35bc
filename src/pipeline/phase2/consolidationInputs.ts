import { addressesAgent, withoutAgentDirected } from "../../text/addressesAgent.js";
import { isGlobalFact } from "../phase1/factScope.js";
import type { Stage1Output } from "../phase1/types.js";
import { normalizeStatement } from "./consolidators/mergeFacts.js";

/**
 * A stage-1 output as any consolidator may see it: nothing addressed to an agent, in its facts, raw
 * memory or summary. Outputs stored before phase 1 guarded its answers are cleaned here too.
 */
export function guardedInput(output: Stage1Output): Stage1Output {
  return {
    ...output,
    rolloutSummary: withoutAgentDirected(output.rolloutSummary).text,
    rawMemory: withoutAgentDirected(output.rawMemory).text,
    facts: output.facts.filter((fact) => !addressesAgent(fact.content)),
  };
}

export function guardedText(text: string | null): string | null {
  return text === null ? null : withoutAgentDirected(text).text;
}

/**
 * A model-written session's facts that its raw memory does not repeat (case, punctuation and spacing
 * aside), one line each with its type, scope and confidence. Consolidators read the raw memory, not the
 * facts: a fact the model stated only in "facts" would otherwise never reach the handbook, and one
 * under pipeline.minFactConfidenceForWrite is in no stored memory either. The offline extractor writes
 * its raw memory from the same evidence as its facts: its outputs have none.
 */
export function otherFacts(output: Stage1Output): string[] {
  if (output.generator === "offline") return [];
  const raw = normalizeStatement(output.rawMemory);
  // Least confident first: a consolidator's input is cut to a budget, and the facts under the write
  // threshold are the ones no stored memory holds (a stable sort keeps the model's order among equals).
  const byConfidence = [...output.facts].sort((a, b) => a.confidence - b.confidence);
  return byConfidence.flatMap((fact) => {
    const key = normalizeStatement(fact.content);
    if (!key || raw.includes(key)) return [];
    const label = [fact.type, ...(fact.scope ? [fact.scope] : []), `confidence ${fact.confidence}`].join(", ");
    return [`- (${label}) ${fact.content.replace(/\s+/g, " ").trim()}`];
  });
}

/**
 * What the global workspace may learn from a selection: per session, only the preferences that are
 * user-level, because the model scoped them "global" (or, without a scope, they are stated as a habit
 * beyond one repository: "in all my projects", "I always ...") or because the same preference (normalized) was stated in two or more projects.
 * The session's summary and raw memory are replaced by those preferences, so no consolidator, model
 * or agent, is ever shown a project's facts while writing the memory every project receives.
 * Sessions with nothing user-level are left out, unless `keepEmpty` (removed inputs, whose old
 * knowledge a model must be told to forget). `among` is the set in which a preference is counted
 * across projects (default: `outputs`).
 */
export function globalInputs(
  outputs: readonly Stage1Output[],
  options: { among?: readonly Stage1Output[]; keepEmpty?: boolean } = {},
): Stage1Output[] {
  const projects = projectsByPreference(options.among ?? outputs);
  const userLevel = (fact: Stage1Output["facts"][number]) =>
    isGlobalFact(fact) || (projects.get(normalizeStatement(fact.content))?.size ?? 0) >= 2;
  return outputs.flatMap((output) => {
    const facts = guardedInput(output).facts.filter((fact) => fact.type === "preference" && userLevel(fact));
    if (facts.length === 0 && !options.keepEmpty) return [];
    const lines = facts.map((fact) => `- ${fact.content}`);
    return [
      {
        ...output,
        rolloutSlug: "user-preferences",
        rolloutSummary:
          facts.length === 0
            ? "Nothing user-level: everything this session said stays in its project's memory."
            : `User-level preferences stated in this session (the rest stays in its project's memory):\n${lines.join("\n")}`,
        rawMemory: facts.length === 0 ? "" : `## User-level preferences\n${lines.join("\n")}`,
        facts,
        entities: [],
      },
    ];
  });
}

/** Distinct project keys that stated each preference; sessions without a project count for none. */
function projectsByPreference(outputs: readonly Stage1Output[]): Map<string, Set<string>> {
  const projects = new Map<string, Set<string>>();
  for (const output of outputs) {
    if (!output.projectKey) continue;
    for (const fact of output.facts) {
      if (fact.type !== "preference") continue;
      const key = normalizeStatement(fact.content);
      if (!key) continue;
      const set = projects.get(key) ?? new Set<string>();
      set.add(output.projectKey);
      projects.set(key, set);
    }
  }
  return projects;
}
