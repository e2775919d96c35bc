import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { CairnConfig } from "../config/schema.js";
import { isProjectKey, projectIdentity } from "../project/projectKey.js";
import type { FolderFilter } from "../store/contracts/eligibility.js";
import type { ProjectFolder } from "../store/repositories/sessionsRepository.js";
import type { Storage } from "../store/storage.js";
import { readProjectIndex } from "../workspace/projectIndex.js";
import { globalWorkspace, projectWorkspace, type WorkspaceRef } from "../workspace/workspacePaths.js";
import { sessionsReason } from "./emptyInjectionReason.js";
import { folderState } from "./folderState.js";
import { waitingParts } from "./waitingParts.js";

export interface WorkspaceListing {
  key: string;
  /** The short name the workspace is known by (the repository's or folder's name). */
  name: string;
  kind: "global" | "project";
  /** Directories the project's sessions ran in; the first one names it on `memory://root` reads. */
  cwds: string[];
  /** Markdown files readable through `memory://global/<file>` or `memory://root/<file>`, paths with `/`. */
  files: string[];
}

export interface ProjectListing extends WorkspaceListing {
  kind: "project";
  /**
   * What a person recognises it by: the workspace's name when there is one, else the folder its sessions
   * ran in last, else the key (a project known only from memories remembered for it).
   */
  label: string;
  /** Whether phase 2 has written its workspace (MEMORY.md and the rest). */
  hasWorkspace: boolean;
  /** Why there is no workspace (null when there is one). */
  noWorkspace: string | null;
  /** Its live memories. */
  memories: number;
  /** Its collected sessions, excluded ones left out. */
  sessions: number;
  /**
   * A folder whose project is this key today, for requests that take a `cwd` (recall, inject); null
   * when none is known (a `git:` project known only from memories, a checkout moved or deleted): ask by
   * `scope: key` then.
   */
  cwd: string | null;
}

export interface ProjectList {
  global: WorkspaceListing;
  projects: ProjectListing[];
}

export const NO_WORKSPACE = {
  extracted: "no workspace yet: consolidation ('cairn run') writes it from this project's extracted sessions",
  pending: "no workspace yet: consolidation writes it after this project's sessions are extracted ('cairn run')",
  /** The same, with what each waiting session waits for (too old ones are never taken by 'cairn run'). */
  waiting: (parts: readonly string[]) =>
    `no workspace yet: consolidation writes it after this project's sessions are extracted; ${parts.join("; ")}`,
  noSessions:
    "no workspace: workspaces are consolidated from agent sessions and none of this project's was collected; its remembered memories are used as they are",
} as const;

/**
 * The global workspace and every project cairn knows: those phase 2 wrote a workspace for
 * (`memories/projects.json`), then those with memories or sessions in the store only, by label. The one
 * project list of every door (the memory browser's picker through `/api/projects`).
 */
export function projectList(options: {
  storage: Storage;
  memoriesRoot: string;
  config: CairnConfig;
  now: number;
}): ProjectList {
  const { storage, memoriesRoot, config, now } = options;
  const known: KnownProjects = {
    memoriesRoot,
    waits: (folder) => waitingParts(sessionsReason(folderState({ storage, config, folder, now }), config, now), config),
    byScope: storage.memories.counts().byScope,
    folders: storage.sessions.projectFolders(),
    extracted: new Set(storage.stage1.projectKeys()),
    indexed: new Map(readProjectIndex(memoriesRoot).map((entry) => [entry.key, entry.cwds])),
  };
  const keys = new Set([
    ...known.indexed.keys(),
    ...Object.keys(known.byScope).filter(isProjectKey),
    ...[...known.folders.keys()].filter(isProjectKey),
  ]);
  const order = [...known.indexed.keys()];
  const rank = (project: ProjectListing) => (project.hasWorkspace ? order.indexOf(project.key) : order.length);
  return {
    global: globalListing(memoriesRoot),
    projects: [...keys]
      .map((key) => listProject(key, known))
      .filter((project) => project.hasWorkspace || project.memories > 0 || project.sessions > 0)
      .sort((a, b) => rank(a) - rank(b) || byCodeUnits(a.label, b.label)),
  };
}

/** What the store and the memories folder say of the projects, read once per list. */
interface KnownProjects {
  memoriesRoot: string;
  /** Why the sessions of a folder wait, one phrase per kind of wait (read only for a project without a workspace). */
  waits: (folder: FolderFilter) => string[];
  /** Live memories per scope. */
  byScope: Record<string, number>;
  folders: Map<string, ProjectFolder[]>;
  /** Project keys with extracted sessions (stage-1 outputs). */
  extracted: Set<string | null>;
  /** `memories/projects.json`: the folders of each workspace phase 2 wrote. */
  indexed: Map<string, string[]>;
}

function listProject(key: string, known: KnownProjects): ProjectListing {
  const workspace = projectWorkspace(known.memoriesRoot, key);
  const files = markdownFiles(workspace.dir);
  const seen = known.folders.get(key) ?? [];
  const seenFolders = seen.flatMap((folder) => (folder.cwd === null ? [] : [folder.cwd]));
  const recorded = known.indexed.get(key) ?? [];
  const hasWorkspace = files.length > 0;
  return {
    key,
    name: workspace.name,
    kind: "project",
    cwds: recorded.length > 0 ? recorded : seenFolders,
    files,
    label: hasWorkspace ? workspace.name : (seenFolders[0] ?? key),
    hasWorkspace,
    noWorkspace: hasWorkspace ? null : noWorkspaceReason(key, seenFolders, known),
    memories: known.byScope[key] ?? 0,
    sessions: seen.reduce((sum, folder) => sum + folder.sessions, 0),
    // A folder that moved, or whose key came from a remote an agent recorded, asks for another project now.
    cwd: [...seenFolders, ...recorded].find((cwd) => existsSync(cwd) && projectIdentity(cwd).key === key) ?? null,
  };
}

/** The same order on every machine, whatever its locale. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function globalListing(memoriesRoot: string): WorkspaceListing {
  const ref: WorkspaceRef = globalWorkspace(memoriesRoot);
  return { key: ref.key, name: ref.name, kind: "global", cwds: [], files: markdownFiles(ref.dir) };
}

function noWorkspaceReason(key: string, seenFolders: readonly string[], known: KnownProjects): string {
  if (known.extracted.has(key)) return NO_WORKSPACE.extracted;
  if (!known.folders.has(key)) return NO_WORKSPACE.noSessions;
  // The sessions may never be taken (too old, a kind left out, failed for good): say so, as inject does.
  const [cwd] = seenFolders;
  const parts = cwd === undefined ? [] : known.waits({ projectKeys: [key], cwd });
  return parts.length > 0 ? NO_WORKSPACE.waiting(parts) : NO_WORKSPACE.pending;
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
