import { existsSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { projectIdentity } from "../project/projectKey.js";
import { writeFileAtomic } from "../util/atomicWrite.js";
import { projectWorkspace, type WorkspaceRef } from "./workspacePaths.js";

/** `memories/projects.json`: which directories each project workspace was built from. */
export interface ProjectIndexEntry {
  key: string;
  name: string;
  cwds: string[];
}

const INDEX_FILE = "projects.json";

export function writeProjectIndex(memoriesRoot: string, entries: readonly ProjectIndexEntry[]): void {
  writeFileAtomic(join(memoriesRoot, INDEX_FILE), `${JSON.stringify({ version: 1, projects: entries }, null, 2)}\n`);
}

/**
 * The project workspace for a directory: by its repository identity when that workspace exists, else by
 * the directories sessions were recorded in (a checkout that moved, or a project known only by the
 * remote another agent recorded). Reads one small file; no database.
 */
export function workspaceForCwd(memoriesRoot: string, cwd: string): WorkspaceRef {
  const direct = projectWorkspace(memoriesRoot, projectIdentity(cwd).key);
  if (existsSync(direct.dir)) return direct;
  let best: { key: string; length: number } | undefined;
  for (const entry of readIndex(memoriesRoot)) {
    for (const recorded of entry.cwds) {
      const matches = cwd === recorded || cwd.startsWith(recorded.endsWith(sep) ? recorded : `${recorded}${sep}`);
      if (matches && recorded.length > (best?.length ?? -1)) best = { key: entry.key, length: recorded.length };
    }
  }
  return best ? projectWorkspace(memoriesRoot, best.key) : direct;
}

function readIndex(memoriesRoot: string): ProjectIndexEntry[] {
  try {
    const parsed = JSON.parse(readFileSync(join(memoriesRoot, INDEX_FILE), "utf8")) as { projects?: unknown };
    return Array.isArray(parsed.projects)
      ? (parsed.projects as ProjectIndexEntry[]).filter((e) => Array.isArray(e?.cwds))
      : [];
  } catch {
    return [];
  }
}
