import type { StaleStatement } from "../../../workspace/staleStatements.js";
import type { WorkspaceRef } from "../../../workspace/workspacePaths.js";
import type { Stage1Output } from "../../phase1/types.js";
import type { SelectionDiff } from "../selectionDiff.js";

export interface SkillFile {
  /** Folder name: lowercase words joined by hyphens. */
  name: string;
  description: string;
  body: string;
}

export interface ConsolidatedFiles {
  memory: string;
  /** Must start with the version line `v1`. */
  summary: string;
  skills: SkillFile[];
}

export interface ConsolidationInput {
  workspace: WorkspaceRef;
  /** The staging folder: raw_memories.md and rollout_summaries/ are already synced into it. */
  dir: string;
  /** The memories root holding every workspace: nothing outside `dir` may change during consolidation. */
  root: string;
  previous: { memory: string | null; summary: string | null };
  diff: SelectionDiff;
  /** Summary file name (relative to the workspace) of every input, for citations. */
  summaryFiles: ReadonlyMap<string, string>;
  /**
   * What is no longer true in this workspace's scope, newest first: superseded memories with what
   * replaced them, and withdrawn (forgotten) ones. The inputs were already cleaned of them; a
   * consolidator must not bring them back from the previous files. The published files are checked
   * against them again after it answers.
   */
  stale: readonly StaleStatement[];
  now: number;
}

export interface ConsolidationContext {
  signal: AbortSignal;
  /** Call while long work runs; false means the lease was lost and the work should stop. */
  heartbeat: () => boolean;
}

export interface ConsolidationResult {
  /** Files to write; undefined when the consolidator wrote the staging folder itself (agent mode). */
  files?: ConsolidatedFiles;
  tokensIn?: number;
  tokensOut?: number;
  warnings: string[];
}

/** One way of turning selected stage-1 outputs into MEMORY.md, memory_summary.md and skills. */
export interface Consolidator {
  readonly mode: "llm" | "agent" | "offline";
  consolidate(input: ConsolidationInput, context: ConsolidationContext): Promise<ConsolidationResult>;
}

export function currentInputs(diff: SelectionDiff): Stage1Output[] {
  return [...diff.added, ...diff.retained];
}
