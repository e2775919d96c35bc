import { join, relative, sep } from "node:path";
import { layoutDir, type SkippedPath, walkFiles } from "../walk.js";

/**
 * `projects/<escaped-cwd>/<session>.jsonl` (including 2.0.x flat `agent-*.jsonl` sidechains) and
 * `projects/<escaped-cwd>/<session>/subagents/agent-*.jsonl`. Spilled tool outputs and other side
 * files under the session folder are not transcripts.
 */
export function discoverTranscripts(root: string, skipped?: SkippedPath[]): string[] {
  // `--source claude-code=<folder>` may name a projects folder rather than a Claude Code home.
  const projects = layoutDir(root, "projects");
  // The walk joins names onto the folder it was given, so a plain prefix cut is the relative path
  // (path.relative resolves both paths for every file of a tree with thousands).
  const prefix = join(projects, sep);
  const parts = (path: string) =>
    (path.startsWith(prefix) ? path.slice(prefix.length) : relative(projects, path)).split(sep);
  return walkFiles(projects, (name, path) => isTranscript(name, parts(path)), 3, skipped);
}

function isTranscript(name: string, parts: string[]): boolean {
  if (!name.endsWith(".jsonl")) return false;
  if (parts.length === 2) return true;
  return parts.length === 4 && parts[2] === "subagents" && name.startsWith("agent-");
}
