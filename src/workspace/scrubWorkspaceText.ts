import { lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { writeFileAtomic } from "../util/atomicWrite.js";
import { textFormsPattern } from "../util/textForms.js";

export interface WorkspaceScrub {
  /** Files rewritten or removed, relative to the memories root. */
  files: string[];
  /** Workspace folders (their public paths) that held the text. */
  workspaces: string[];
}

/**
 * Replaces `text` (any letter case, and JSON-escaped) in every file under the memories root, every
 * version folder included, and removes files and folders whose name holds it (a skill or rollout
 * summary named after it). Links are not followed: each version folder is reached where it lives.
 */
export function scrubWorkspaceText(memoriesRoot: string, text: string, replacement: string): WorkspaceScrub {
  const pattern = textFormsPattern(text);
  const holds = (value: string) => {
    pattern.lastIndex = 0;
    return pattern.test(value);
  };
  const files: string[] = [];
  const visit = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch (error) {
      // A folder removed meanwhile holds nothing; one that cannot be read may still hold the text.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const name of entries) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (holds(name)) {
        rmSync(path, { recursive: true, force: true });
        files.push(relative(memoriesRoot, path));
      } else if (stat.isDirectory()) visit(path);
      else if (stat.isFile()) {
        const before = readFileSync(path, "utf8");
        if (!holds(before)) continue;
        writeFileAtomic(path, before.replace(pattern, replacement));
        files.push(relative(memoriesRoot, path));
      }
    }
  };
  visit(memoriesRoot);
  const workspaces = new Set(files.flatMap((file) => workspaceOf(memoriesRoot, file)));
  return { files: files.sort(), workspaces: [...workspaces].sort() };
}

/**
 * The public path of the workspace a file belongs to: `global/…` or `projects/<name>/…`, each either
 * as it is or inside its `.versions/<name>/<version>/` folder.
 */
function workspaceOf(memoriesRoot: string, file: string): string[] {
  const parts = file.split(sep);
  const [first, second, third] = parts;
  if (first === "global") return [join(memoriesRoot, "global")];
  if (first === ".versions" && second === "global") return [join(memoriesRoot, "global")];
  if (first !== "projects" || second === undefined) return [];
  if (second === ".versions") return third === undefined ? [] : [join(memoriesRoot, "projects", third)];
  return [join(memoriesRoot, "projects", second)];
}
