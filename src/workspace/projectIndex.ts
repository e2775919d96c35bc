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
  for (const entry of readProjectIndex(memoriesRoot)) {
    for (const recorded of entry.cwds) {
      const matches = cwd === recorded || cwd.startsWith(recorded.endsWith(sep) ? recorded : `${recorded}${sep}`);
      if (matches && recorded.length > (best?.length ?? -1)) best = { key: entry.key, length: recorded.length };
    }
  }
  return best ? projectWorkspace(memoriesRoot, best.key) : direct;
}

/**
 * Entries of a readable index. A missing file is normal (no phase 2 yet); an unreadable one falls back
 * to the identity workspace above, which is right for every repository whose identity did not change,
 * and the next phase-2 run rewrites it; `cairn doctor` reports it meanwhile (`projectIndexProblem`).
 */
export function readProjectIndex(memoriesRoot: string): ProjectIndexEntry[] {
  const read = parseIndex(memoriesRoot);
  return "entries" in read ? read.entries : [];
}

/** Why `memories/projects.json` cannot be used, or null when it is fine or absent. */
export function projectIndexProblem(memoriesRoot: string): string | null {
  const read = parseIndex(memoriesRoot);
  return "problem" in read ? read.problem : null;
}

function parseIndex(memoriesRoot: string): { entries: ProjectIndexEntry[] } | { problem: string } {
  const path = join(memoriesRoot, INDEX_FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { entries: [] };
    return { problem: `${path} cannot be read (${(error as Error).message})` };
  }
  try {
    const parsed = JSON.parse(text) as { projects?: unknown };
    if (!Array.isArray(parsed.projects)) return { problem: `${path} has no "projects" list` };
    return { entries: (parsed.projects as ProjectIndexEntry[]).filter((e) => Array.isArray(e?.cwds)) };
  } catch (error) {
    return { problem: `${path} is not valid JSON (${(error as Error).message})` };
  }
}
