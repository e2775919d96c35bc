import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * Lists files under `root` whose name passes `accept`, depth-first, in a stable (sorted) order.
 * A missing or unreadable root or sub-folder yields nothing rather than an error: agents that are not
 * installed simply have no sessions. Symbolic links are not followed, so a link loop cannot hang a scan.
 */
export function walkFiles(root: string, accept: (name: string, path: string) => boolean, maxDepth = 8): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < maxDepth) visit(path, depth + 1);
      } else if (entry.isFile() && accept(entry.name, path)) {
        found.push(path);
      }
    }
  };
  visit(root, 0);
  return found;
}

/**
 * `root/<name>` when the root has the agent's home layout, else the root itself: a user who passes
 * `--source codex=<folder of rollouts>` means that folder, not a `sessions/` inside it.
 */
export function layoutDir(root: string, name: string): string {
  const nested = join(root, name);
  try {
    if (statSync(nested).isDirectory()) return nested;
  } catch {
    // Not the home layout: the root is the folder itself.
  }
  return root;
}
