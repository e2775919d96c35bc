import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../util/atomicWrite.js";
import { summaryFileName } from "../../workspace/summaryFileName.js";
import type { Stage1Output } from "../phase1/types.js";
import { renderRawMemories, renderRolloutSummary } from "./artifacts.js";
import type { SelectionDiff } from "./selectionDiff.js";

/**
 * Writes the consolidation inputs into the staging folder: `raw_memories.md` and one rollout summary
 * per session. `outputs` is the union of the current and the removed selection, so evidence for removed
 * sessions stays readable while consolidation decides what to forget. Summaries of sessions in
 * neither are deleted. Returns each session's summary path relative to the workspace.
 */
export function syncInputs(dir: string, outputs: readonly Stage1Output[]): Map<string, string> {
  const files = new Map<string, string>();
  const summariesDir = join(dir, "rollout_summaries");
  const keep = new Set<string>();
  for (const output of outputs) {
    const name = summaryFileName(output);
    keep.add(name);
    files.set(output.sessionId, `rollout_summaries/${name}`);
    writeFileAtomic(join(summariesDir, name), renderRolloutSummary(output));
  }
  pruneSummaries(summariesDir, keep);
  writeFileAtomic(join(dir, "raw_memories.md"), renderRawMemories(outputs));
  return files;
}

/** After consolidation: only the current selection's evidence remains. */
export function pruneToCurrent(dir: string, diff: SelectionDiff): void {
  const current = [...diff.added, ...diff.retained];
  pruneSummaries(join(dir, "rollout_summaries"), new Set(current.map(summaryFileName)));
  writeFileAtomic(join(dir, "raw_memories.md"), renderRawMemories(current));
}

/** A short description of the diff, for a consolidation agent to read first. */
export function renderDiffFile(diff: SelectionDiff, files: ReadonlyMap<string, string>): string {
  const list = (outputs: readonly Stage1Output[]) =>
    outputs.length === 0
      ? "- none"
      : outputs.map((o) => `- ${o.sessionId} (${files.get(o.sessionId) ?? "?"})`).join("\n");
  return [
    "# Phase 2 diff",
    "",
    "## Added (new or refreshed: merge their knowledge in)",
    list(diff.added),
    "",
    "## Retained (already consolidated)",
    list(diff.retained),
    "",
    "## Removed (forget what only these supported)",
    list(diff.removed),
    "",
  ].join("\n");
}

function pruneSummaries(summariesDir: string, keep: ReadonlySet<string>): void {
  if (!existsSync(summariesDir)) return;
  for (const name of readdirSync(summariesDir)) {
    if (!keep.has(name)) rmSync(join(summariesDir, name), { recursive: true, force: true });
  }
}
