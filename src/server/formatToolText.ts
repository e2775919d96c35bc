import { describeSupersessions } from "../memory/lifecycle/describeSupersessions.js";
import type { RecallResponse, RememberOutcome } from "../memory/types.js";

/**
 * Recall results as an agent reads them: one numbered block per memory with its score, type, scope and
 * id, the content quoted so that memory text is never mistaken for instructions.
 */
export function formatRecall(query: string, response: RecallResponse): string {
  if (response.results.length === 0) return `No memories match "${query}".`;
  const lines = [`${response.results.length} memories for "${query}" (most relevant first):`];
  response.results.forEach((result, index) => {
    const source = result.provenance.sessionId ? `, from session ${result.provenance.sessionId}` : "";
    const ref = result.ref ? `, ref ${result.ref}` : "";
    lines.push(
      "",
      `${index + 1}. [score ${result.score.toFixed(2)}, ${result.type}, scope ${result.scope}, id ${result.id}${ref}${source}]`,
      ...result.content.split("\n").map((line) => `> ${line}`),
    );
    for (const item of result.evidence ?? []) lines.push(`   evidence #${item.seq} ${item.role}: ${item.text}`);
  });
  for (const warning of response.warnings) lines.push("", `warning: ${warning}`);
  return lines.join("\n");
}

export function formatRemember(outcome: RememberOutcome | undefined): string {
  if (!outcome) return "Nothing was stored.";
  if (outcome.status === "created")
    return [
      `Remembered (id ${outcome.id}).`,
      ...describeSupersessions(outcome),
      ...(outcome.warnings ?? []).map((w) => `warning: ${w}`),
    ].join("\n\n");
  if (outcome.status === "deduped") return `Already remembered (id ${outcome.id}); nothing new was stored.`;
  return `Not stored: ${outcome.reason ?? "skipped"}.`;
}
