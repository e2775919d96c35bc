import { toIso } from "../../util/clock.js";
import { replacedMark, type StaleStatement } from "../../workspace/staleStatements.js";
import { summaryFileName } from "../../workspace/summaryFileName.js";
import type { Stage1Output } from "../phase1/types.js";
import { otherFacts } from "./consolidationInputs.js";

export function renderRolloutSummary(output: Stage1Output): string {
  return [
    `session_id: ${output.sessionId}`,
    `agent: ${output.agent ?? "unknown"}`,
    `updated_at: ${toIso(output.sourceUpdatedAt)}`,
    `cwd: ${output.cwd ?? "unknown"}`,
    `items: ${output.itemFrom ?? "?"}-${output.itemTo ?? "?"}`,
    "",
    output.rolloutSummary.trim() || "(no summary)",
    "",
  ].join("\n");
}

/**
 * The merged raw memories of a selection, latest first, each with where it came from and the facts
 * its extraction stated that the raw memory does not repeat (otherFacts).
 */
export function renderRawMemories(outputs: readonly Stage1Output[]): string {
  if (outputs.length === 0) return "# Raw Memories\n\nNo raw memories yet.\n";
  const sorted = [...outputs].sort(
    (a, b) => b.sourceUpdatedAt - a.sourceUpdatedAt || a.sessionId.localeCompare(b.sessionId),
  );
  const blocks = sorted.map((output) => {
    const facts = otherFacts(output);
    return [
      `## Session \`${output.sessionId}\``,
      `updated_at: ${toIso(output.sourceUpdatedAt)}`,
      `cwd: ${output.cwd ?? "unknown"}`,
      `rollout_summary_file: rollout_summaries/${summaryFileName(output)}`,
      "",
      output.rawMemory.trim(),
      "",
      ...(facts.length > 0 ? ["### Other facts (type, scope, confidence)", ...facts, ""] : []),
    ].join("\n");
  });
  return `# Raw Memories\n\nMerged stage-1 raw memories (latest first):\n\n${blocks.join("\n")}`;
}

/** What is no longer true, for a consolidation agent to read before it edits the handbook. */
export function renderStaleFile(stale: readonly StaleStatement[]): string {
  const replaced = stale.filter((entry) => entry.replacement !== null);
  const withdrawn = stale.filter((entry) => entry.replacement === null);
  const list = (entries: readonly StaleStatement[]) =>
    entries.length === 0
      ? "- none"
      : entries.map((entry) => `- ${flat(entry.statement)} ${replacedMark(entry)}`).join("\n");
  return [
    "# No longer true",
    "",
    "## Replaced (never write these as current; write what replaced them, or mark them as replaced)",
    list(replaced),
    "",
    "## Withdrawn (remove these everywhere)",
    list(withdrawn),
    "",
  ].join("\n");
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
