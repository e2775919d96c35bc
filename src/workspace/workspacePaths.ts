import { join } from "node:path";
import { sha256 } from "../util/hash.js";

export const GLOBAL_WORKSPACE = "global";

export interface WorkspaceRef {
  /** `global`, or the project key. */
  key: string;
  kind: "global" | "project";
  /** Human name shown in headings. */
  name: string;
  /** The path readers use (a symbolic link to the current version). */
  dir: string;
}

/** The global workspace under the memories root. */
export function globalWorkspace(memoriesRoot: string): WorkspaceRef {
  return { key: GLOBAL_WORKSPACE, kind: "global", name: "global", dir: join(memoriesRoot, "global") };
}

/**
 * A project's workspace: `projects/<name>-<hash>` so the folder is recognizable and two projects with
 * the same folder name never share a workspace.
 */
export function projectWorkspace(memoriesRoot: string, projectKey: string): WorkspaceRef {
  const name = projectName(projectKey);
  const slug = `${name.replace(/[^a-zA-Z0-9._-]+/g, "_").slice(0, 40) || "project"}-${sha256(projectKey).slice(0, 8)}`;
  return { key: projectKey, kind: "project", name, dir: join(memoriesRoot, "projects", slug) };
}

export function projectName(projectKey: string): string {
  const path = projectKey.replace(/^(?:git|root|path):/, "").replace(/\/+$/, "");
  return path.split("/").at(-1) || path || projectKey;
}
