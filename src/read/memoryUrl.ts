import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { redactText } from "../redact/redact.js";
import { CairnError } from "../util/errors.js";
import { workspaceForCwd } from "../workspace/projectIndex.js";
import { globalWorkspace } from "../workspace/workspacePaths.js";
import { readRegularFile } from "./readRegularFile.js";

export interface ResolvedMemoryUrl {
  url: string;
  scope: "root" | "global";
  /** Path inside the workspace, with forward slashes; empty for the summary itself. */
  relativePath: string;
  /** Absolute path of the file, after symbolic links, guaranteed inside the workspace. */
  file: string;
}

const MAX_READ_BYTES = 4 * 1024 * 1024;

/**
 * Resolves `memory://root/...` (the current project's workspace) and `memory://global/...` to a file,
 * refusing anything that could leave the workspace: `..` segments (also percent-encoded), absolute
 * paths, backslashes, NUL bytes, bad percent-encoding, and symbolic links that point outside.
 */
export function resolveMemoryUrl(url: string, options: { memoriesRoot: string; cwd: string }): ResolvedMemoryUrl {
  const match = /^memory:\/\/(root|global)(\/.*)?$/.exec(url.trim());
  if (!match) throw bad(url, "expected memory://root/<path> or memory://global/<path>");
  const scope = match[1] as "root" | "global";
  const segments = decodeSegments(url, match[2] ?? "");
  const relativePath = segments.length === 0 ? "memory_summary.md" : segments.join("/");
  const workspace =
    scope === "global" ? globalWorkspace(options.memoriesRoot) : workspaceForCwd(options.memoriesRoot, options.cwd);
  if (!existsSync(workspace.dir)) {
    throw new CairnError(
      "memory_not_found",
      `${redactText(url)}: no ${scope === "global" ? "global" : "project"} memory yet (run 'cairn run')`,
    );
  }
  const base = realpathSync(workspace.dir);
  const candidate = join(base, ...relativePath.split("/"));
  if (!existsSync(candidate)) throw new CairnError("memory_not_found", `${redactText(url)}: no such memory file`);
  const file = realpathSync(candidate);
  const inside = relative(base, file);
  if (inside === "" || inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside)) {
    throw bad(url, "resolves outside the memory workspace");
  }
  return { url, scope, relativePath, file };
}

/** Reads a memory file: a regular file only (a folder, FIFO or device is refused with an error). */
export function readMemoryUrl(
  url: string,
  options: { memoriesRoot: string; cwd: string },
): { url: string; content: string } {
  const resolved = resolveMemoryUrl(url, options);
  return { url, content: readRegularFile(resolved.file, { label: url, maxBytes: MAX_READ_BYTES }) };
}

function decodeSegments(url: string, path: string): string[] {
  if (path.includes("\\")) throw bad(url, "backslashes are not allowed");
  const segments: string[] = [];
  for (const raw of path.split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw bad(url, "bad percent-encoding");
    }
    if (segment.includes("\0")) throw bad(url, "NUL bytes are not allowed");
    if (segment.includes("/") || segment.includes("\\")) throw bad(url, "encoded path separators are not allowed");
    if (segment === "." || segment === "..") throw bad(url, "'.' and '..' segments are not allowed");
    segments.push(segment);
  }
  return segments;
}

function bad(url: string, why: string): CairnError {
  // The URL as given is quoted: redacted, as a mistyped or pasted one can hold a token.
  const shown = redactText(url).replace(/\0/g, "\\0").slice(0, 200);
  return new CairnError("bad_memory_url", `${shown}: ${why}`);
}
