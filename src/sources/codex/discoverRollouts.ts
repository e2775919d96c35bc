import { join } from "node:path";
import { layoutDir, type SkippedPath, walkFiles } from "../walk.js";

const ROLLOUT = /^rollout-.*\.jsonl(\.zst)?$/;

/**
 * `sessions/YYYY/MM/DD/rollout-*.jsonl` and the flat `archived_sessions/`, plus compressed `.jsonl.zst`
 * copies; when both forms of a rollout exist the plain one wins (it is the one Codex still appends to).
 */
export function discoverRollouts(root: string, skipped?: SkippedPath[]): string[] {
  const accept = (name: string): boolean => ROLLOUT.test(name);
  const homeLayout = layoutDir(root, "sessions") !== root || layoutDir(root, "archived_sessions") !== root;
  // A folder that is not a Codex home (`--source codex=<folder of rollouts>`) is searched as it is.
  const found = homeLayout
    ? [
        ...walkFiles(join(root, "sessions"), accept, 4, skipped),
        ...walkFiles(join(root, "archived_sessions"), accept, 0, skipped),
      ]
    : walkFiles(root, accept, 5, skipped);
  const plain = new Set(found.filter((path) => path.endsWith(".jsonl")));
  return found.filter((path) => !path.endsWith(".zst") || !plain.has(path.slice(0, -".zst".length)));
}
