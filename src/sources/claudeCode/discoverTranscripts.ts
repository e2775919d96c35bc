import { relative, sep } from "node:path";
import { layoutDir, type SkippedPath, walkFiles } from "../walk.js";

/**
 * `projects/<escaped-cwd>/<session>.jsonl` (including 2.0.x flat `agent-*.jsonl` sidechains) and
 * `projects/<escaped-cwd>/<session>/subagents/agent-*.jsonl`. Spilled tool outputs and other side
 * files under the session folder are not transcripts.
 */
export function discoverTranscripts(root: string, skipped?: SkippedPath[]): string[] {
  // `--source claude-code=<folder>` may name a projects folder rather than a Claude Code home.
  const projects = layoutDir(root, "projects");
  return walkFiles(projects, (name, path) => isTranscript(name, relative(projects, path).split(sep)), 3, skipped);
}

function isTranscript(name: string, parts: string[]): boolean {
  if (!name.endsWith(".jsonl")) return false;
  if (parts.length === 2) return true;
  return parts.length === 4 && parts[2] === "subagents" && name.startsWith("agent-");
}
