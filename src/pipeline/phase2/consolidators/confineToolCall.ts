import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

/**
 * The tools the consolidation agent may use: its own file tools and nothing that reaches further
 * (no shell, no web, no sub-agents, no MCP servers the user configured).
 */
const FILE_TOOLS = new Set([
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "Glob",
  "Grep",
  "LS",
  "NotebookRead",
  "NotebookEdit",
]);
const HARMLESS_TOOLS = new Set(["TodoWrite"]);
/** Fields of a file tool's input that name a path. */
const PATH_FIELDS = ["file_path", "path", "notebook_path"] as const;
/** Fields that hold a glob, relative to the tool's path; an absolute glob or `..` would leave it. */
const GLOB_FIELDS = ["pattern", "glob"] as const;

export type ConfineDecision = { allow: true } | { allow: false; reason: string };

/**
 * Decides one tool call of the consolidation agent (Claude Code's PreToolUse hook input): allowed
 * only when every path it names resolves, symbolic links followed, inside the workspace it consolidates.
 * A file that does not exist yet (a new file the agent writes) is judged by its nearest existing folder.
 */
export function confineToolCall(input: unknown, root: string): ConfineDecision {
  const call = (input ?? {}) as { tool_name?: unknown; tool_input?: unknown };
  const tool = typeof call.tool_name === "string" ? call.tool_name : "";
  if (HARMLESS_TOOLS.has(tool)) return { allow: true };
  if (!FILE_TOOLS.has(tool))
    return deny(`the consolidation agent may only use file tools inside its workspace (${tool || "unknown tool"})`);
  const args = (call.tool_input ?? {}) as Record<string, unknown>;
  const realRoot = realpathSync(root);
  for (const field of PATH_FIELDS) {
    const value = args[field];
    if (value === undefined) continue;
    if (typeof value !== "string") return deny(`${tool}: ${field} must be a path`);
    if (!inside(realRoot, realOrNearest(resolve(root, value))))
      return deny(`${tool}: ${value} is outside the workspace ${root}`);
  }
  for (const field of GLOB_FIELDS) {
    const value = args[field];
    if (value === undefined || (tool === "Grep" && field === "pattern")) continue;
    if (typeof value !== "string") return deny(`${tool}: ${field} must be a string`);
    if (globLeaves(value)) return deny(`${tool}: ${field} ${value} reaches outside the workspace`);
  }
  return { allow: true };
}

/**
 * Whether a glob can name a file outside the folder it is relative to: it is absolute or starts at a
 * home (`~`), or one of its brace alternatives is (`{/etc/*,x}` expands to `/etc/*`), or a segment,
 * inside braces too (`{..,a}/x`), is `..`. Judged on the text, so a brace the glob tool would take
 * literally is refused as well: a false refusal costs the agent one call, a false allow a file.
 */
function globLeaves(glob: string): boolean {
  if (isAbsolute(glob)) return true;
  const alternatives = glob.split(/[{,]/);
  if (alternatives.some((start) => /^\s*(?:[\\/]|~|[A-Za-z]:)/.test(start))) return true;
  return glob.split(/[\\/{},]/).some((segment) => segment.trim() === "..");
}

function deny(reason: string): ConfineDecision {
  return { allow: false, reason };
}

function realOrNearest(path: string): string {
  let current = path;
  const rest: string[] = [];
  while (!existsSync(current)) {
    const parent = dirname(current);
    if (parent === current) return path;
    rest.unshift(relative(parent, current));
    current = parent;
  }
  return resolve(realpathSync(current), ...rest);
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}
