import { toIso } from "../util/clock.js";
import { sha256 } from "../util/hash.js";

/** The fields of a stage-1 output that name its summary file. */
export interface SummarySource {
  sessionId: string;
  sourceUpdatedAt: number;
  rolloutSlug: string | null;
}

/**
 * File name of a session's rollout summary: `<timestamp>-<short hash>[-<slug>].md`, so summaries sort by
 * time, never collide, and say what they are about. Phase 2 writes them; the read path maps cited names
 * back to their sessions.
 */
export function summaryFileName(output: SummarySource): string {
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
