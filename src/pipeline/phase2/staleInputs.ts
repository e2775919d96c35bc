import type { StaleHit, StaleMatcher } from "../../workspace/staleStatements.js";
import type { Stage1Output } from "../phase1/types.js";
import type { SelectionDiff } from "./selectionDiff.js";

/**
 * A selection with what is no longer true taken out of its knowledge: a stage-1 output is a record of
 * one session, so an old session still says "always use npm" after the project moved to pnpm. Facts
 * that state a stale memory are dropped; sentences of the raw memory and the summary that state one
 * are marked as replaced (or removed, when the memory was withdrawn), so every consolidator, and the
 * evidence files the workspace keeps, read them as history.
 */
export function staleFreeDiff(diff: SelectionDiff, matcher: StaleMatcher): { diff: SelectionDiff; hits: StaleHit[] } {
  if (matcher.size === 0) return { diff, hits: [] };
  const hits: StaleHit[] = [];
  const revise = (outputs: readonly Stage1Output[]) => outputs.map((output) => staleFreeOutput(output, matcher, hits));
  return { diff: { added: revise(diff.added), retained: revise(diff.retained), removed: revise(diff.removed) }, hits };
}

function staleFreeOutput(output: Stage1Output, matcher: StaleMatcher, hits: StaleHit[]): Stage1Output {
  const facts = output.facts.filter((fact) => {
    const stale = matcher.match(fact.content);
    if (stale) hits.push({ stale, sentence: fact.content, action: "dropped" });
    return !stale;
  });
  const rawMemory = matcher.revise(output.rawMemory);
  const rolloutSummary = matcher.revise(output.rolloutSummary);
  hits.push(...rawMemory.hits, ...rolloutSummary.hits);
  return { ...output, facts, rawMemory: rawMemory.text, rolloutSummary: rolloutSummary.text };
}
