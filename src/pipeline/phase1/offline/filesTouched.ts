import type { ItemRecord } from "../../../collection/types.js";

const PATH_KEYS = ["file_path", "path", "filePath", "filename", "target_file", "notebook_path"];
const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm;
const EDIT_TOOLS = /edit|write|patch|create|replace|str_replace|multiedit|apply/i;

/** Files the agent edited, most edited first, from the arguments of its edit tools. */
export function filesTouched(items: Iterable<ItemRecord>, cwd: string | null): Array<{ path: string; edits: number }> {
  const counter = new EditCounter(cwd);
  for (const item of items) counter.add(item);
  return counter.files();
}

/** filesTouched one item at a time: it keeps a count per path, never an item. */
export class EditCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly cwd: string | null) {}

  add(item: ItemRecord): void {
    if (item.role !== "tool_call" || !item.tool || !EDIT_TOOLS.test(item.tool)) return;
    const { cwd } = this;
    for (const path of pathsIn(item.text)) {
      const relative = cwd && path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
      this.counts.set(relative, (this.counts.get(relative) ?? 0) + 1);
    }
  }

  files(): Array<{ path: string; edits: number }> {
    return [...this.counts]
      .map(([path, edits]) => ({ path, edits }))
      .sort((a, b) => b.edits - a.edits || a.path.localeCompare(b.path));
  }
}

function pathsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PATCH_FILE)) found.add(match[1]!.trim());
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const args = JSON.parse(trimmed) as Record<string, unknown>;
      for (const key of PATH_KEYS) if (typeof args[key] === "string") found.add(args[key] as string);
      if (typeof args.input === "string")
        for (const match of args.input.matchAll(PATCH_FILE)) found.add(match[1]!.trim());
    } catch {
      // Not JSON: the patch-header scan above is all there is.
    }
  }
  return [...found].filter((path) => path.length > 0 && path.length < 300);
}
