import { sep } from "node:path";
import type { FolderFilter } from "../contracts/eligibility.js";

/**
 * SQL that keeps the sessions of one folder (`alias` names the sessions table): recorded under one of
 * its project keys, in the folder itself, or in a folder below it. Without a filter every session
 * passes. The folders below are a range of `cwd` rather than a LIKE, so the cwd index answers it.
 */
export function folderCondition(alias: string): string {
  return `(@folderKeys IS NULL OR ${alias}.project_key IN (SELECT value FROM json_each(@folderKeys))
    OR ${alias}.cwd = @folderCwd OR (${alias}.cwd >= @folderBelow AND ${alias}.cwd < @folderEnd))`;
}

/** The parameters `folderCondition` reads. */
export function folderParams(folder: FolderFilter | undefined): Record<string, string | null> {
  if (!folder) return { folderKeys: null, folderCwd: null, folderBelow: null, folderEnd: null };
  const below = folder.cwd.endsWith(sep) ? folder.cwd : `${folder.cwd}${sep}`;
  // Every path that starts with `below` sorts before `below` with its last character raised by one.
  const end = `${below.slice(0, -1)}${String.fromCharCode(below.charCodeAt(below.length - 1) + 1)}`;
  return { folderKeys: JSON.stringify(folder.projectKeys), folderCwd: folder.cwd, folderBelow: below, folderEnd: end };
}
