import { toIso } from "../../util/clock.js";
import { sha256 } from "../../util/hash.js";
import type { Stage1Output } from "../phase1/types.js";

/**
 * File name of a session's rollout summary: `<timestamp>-<short hash>[-<slug>].md`, so summaries sort by
 * time, never collide, and say what they are about.
 */
export function summaryFileName(output: Stage1Output): string {
  const stamp = (toIso(output.sourceUpdatedAt) ?? "1970-01-01T00:00:00").slice(0, 19).replace(/:/g, "-");
  const hash = sha256(output.sessionId).slice(0, 6);
  const slug = (output.rolloutSlug ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 60)
    .replace(/_+$/, "")
    .replace(/^_+/, "");
  return `${stamp}-${hash}${slug ? `-${slug}` : ""}.md`;
}

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

/** The merged raw memories of a selection, latest first, each with where it came from. */
export function renderRawMemories(outputs: readonly Stage1Output[]): string {
  if (outputs.length === 0) return "# Raw Memories\n\nNo raw memories yet.\n";
  const sorted = [...outputs].sort(
    (a, b) => b.sourceUpdatedAt - a.sourceUpdatedAt || a.sessionId.localeCompare(b.sessionId),
  );
  const blocks = sorted.map((output) =>
    [
      `## Session \`${output.sessionId}\``,
      `updated_at: ${toIso(output.sourceUpdatedAt)}`,
      `cwd: ${output.cwd ?? "unknown"}`,
      `rollout_summary_file: rollout_summaries/${summaryFileName(output)}`,
      "",
      output.rawMemory.trim(),
      "",
    ].join("\n"),
  );
  return `# Raw Memories\n\nMerged stage-1 raw memories (latest first):\n\n${blocks.join("\n")}`;
}
