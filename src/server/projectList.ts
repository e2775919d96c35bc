import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readProjectIndex } from "../workspace/projectIndex.js";
import { globalWorkspace, projectWorkspace, type WorkspaceRef } from "../workspace/workspacePaths.js";

export interface WorkspaceListing {
  key: string;
  name: string;
  kind: "global" | "project";
  /** Directories the project's sessions ran in; the first one names it on `memory://root` reads. */
  cwds: string[];
  /** Markdown files readable through `memory://global/<file>` or `memory://root/<file>`, paths with `/`. */
  files: string[];
}

/**
 * The global workspace and every project workspace phase 2 has written (`memories/projects.json`),
 * with the Markdown files each holds: MEMORY.md and memory_summary.md first, then skills and the rest.
 */
export function projectList(memoriesRoot: string): { global: WorkspaceListing; projects: WorkspaceListing[] } {
  const listing = (ref: WorkspaceRef, cwds: string[]): WorkspaceListing => ({
    key: ref.key,
    name: ref.name,
    kind: ref.kind,
    cwds,
    files: markdownFiles(ref.dir),
  });
  return {
    global: listing(globalWorkspace(memoriesRoot), []),
    projects: readProjectIndex(memoriesRoot)
      .map((entry) => listing(projectWorkspace(memoriesRoot, entry.key), entry.cwds))
      .filter((project) => project.files.length > 0),
  };
}

const FIRST = ["MEMORY.md", "memory_summary.md"];

function markdownFiles(dir: string, prefix = "", depth = 0): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".md")) found.push(`${prefix}${entry.name}`);
    // Skills live one or two folders down (skills/<name>/SKILL.md); deeper folders are not memory.
    else if (entry.isDirectory() && depth < 2 && !entry.name.startsWith("."))
      found.push(...markdownFiles(join(dir, entry.name), `${prefix}${entry.name}/`, depth + 1));
  }
  const rank = (file: string) => (FIRST.includes(file) ? FIRST.indexOf(file) : FIRST.length);
  return found.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
