import type { ItemRecord } from "../../../collection/types.js";
import { commandText } from "./commands.js";
import { shellTools, stoppedByUserPattern } from "./patterns.js";

const PATH_KEYS = ["file_path", "path", "filePath", "filename", "target_file", "notebook_path"];
const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm;
const EDIT_TOOLS = /edit|write|patch|create|replace|str_replace|multiedit|apply/i;
/** Codex's patch tool run through the shell (`apply_patch <<'PATCH' ...`): an edit, not a command. */
const SHELL_PATCH = /^apply_patch\b/;

/**
 * Files the agent wrote, most edited first, from the arguments of its edit tools whose result says the
 * write happened: a write the user refused, or one that failed, changed nothing. A call whose result
 * was not recorded counts (some agents record none for an edit).
 */
export function filesTouched(items: Iterable<ItemRecord>, cwd: string | null): Array<{ path: string; edits: number }> {
  const counter = new EditCounter(cwd);
  for (const item of items) counter.add(item);
  return counter.files();
}

/** filesTouched one item at a time: it keeps a count per path and the paths of calls awaiting their result. */
export class EditCounter {
  private readonly counts = new Map<string, number>();
  /** Edit calls by call id, until their result says whether they wrote. */
  private readonly pending = new Map<string, string[]>();
  /** Item id of the latest write that took effect (0 before any). */
  lastWrite = 0;
  /** Writes the user refused or that failed. */
  refused = 0;

  constructor(private readonly cwd: string | null) {}

  add(item: ItemRecord): void {
    if (item.role === "tool_result" && item.callId) {
      const paths = this.pending.get(item.callId);
      if (!paths) return;
      this.pending.delete(item.callId);
      if (item.isError || stoppedByUserPattern.test(item.text.slice(0, 2000))) this.refused += 1;
      else this.count(paths, item.id);
      return;
    }
    if (item.role !== "tool_call" || !item.tool || !isEdit(item)) return;
    const paths = pathsIn(item.text).map((path) => this.relative(path));
    if (paths.length === 0) return;
    if (item.callId) this.pending.set(item.callId, paths);
    else this.count(paths, item.id);
  }

  files(): Array<{ path: string; edits: number }> {
    return [...this.counts]
      .map(([path, edits]) => ({ path, edits }))
      .sort((a, b) => b.edits - a.edits || a.path.localeCompare(b.path));
  }

  /** Calls still without a result at the end count as written: the agent recorded no answer to them. */
  finish(): void {
    for (const paths of this.pending.values()) this.count(paths, this.lastWrite);
    this.pending.clear();
  }

  private count(paths: string[], itemId: number): void {
    for (const path of paths) this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    this.lastWrite = Math.max(this.lastWrite, itemId);
  }

  private relative(path: string): string {
    const { cwd } = this;
    return cwd && path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
  }
}

function isEdit(item: ItemRecord): boolean {
  if (item.tool && shellTools.has(item.tool)) return SHELL_PATCH.test(commandText(item.text) ?? "");
  return EDIT_TOOLS.test(item.tool ?? "");
}

function pathsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PATCH_FILE)) found.add(match[1]!.trim());
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const args = JSON.parse(trimmed) as Record<string, unknown>;
      for (const key of PATH_KEYS) if (typeof args[key] === "string") found.add(args[key] as string);
      for (const value of [args.input, args.cmd, args.command].flat()) {
        if (typeof value === "string") for (const match of value.matchAll(PATCH_FILE)) found.add(match[1]!.trim());
      }
    } catch {
      // Not JSON: the patch-header scan above is all there is.
    }
  }
  return [...found].filter((path) => path.length > 0 && path.length < 300);
}
