import { type Dirent, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import { join, sep } from "node:path";
import { errorMessage } from "../util/errors.js";

/** A path the walk did not follow, and why (reported by the scan, never silently dropped). */
export interface SkippedPath {
  path: string;
  reason: string;
}

/**
 * Lists files under `root` whose name passes `accept`, depth-first, in a stable (sorted) order.
 * A missing root yields nothing rather than an error: agents that are not installed simply have no
 * sessions. A folder that exists but cannot be listed (a permission problem) would hide its sessions,
 * so it is put in `skipped` with the reason. Only regular files are listed: a FIFO or a device would
 * block or never end when read, so one with a transcript's name is put in `skipped` too.
 *
 * Symbolic links (a project folder moved elsewhere and linked back, a session file linked from
 * another) are followed only when their resolved target is inside the resolved root: a link out of the
 * agent's folder could make cairn read anything on the machine, so it is skipped and put in `skipped`.
 * A folder is entered once by its real path (a link loop cannot hang a scan), and a real file reached
 * twice is listed once, preferably under its own path rather than a link's. A link that cannot be
 * resolved because it loops (ELOOP), or that leads back to a folder holding it, is put in `skipped`:
 * whatever the user meant to link is not read.
 */
export function walkFiles(
  root: string,
  accept: (name: string, path: string) => boolean,
  maxDepth = 8,
  skipped?: SkippedPath[],
): string[] {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return [];
  }
  const inside = (real: string) =>
    real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
  /** Real path -> listed path, and whether it was reached through a link. */
  const found = new Map<string, { path: string; linked: boolean }>();
  const entered = new Set<string>([realRoot]);
  const add = (real: string, path: string, linked: boolean) => {
    const known = found.get(real);
    if (!known || (known.linked && !linked)) found.set(real, { path, linked });
  };
  const visit = (dir: string, realDir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      // Removed while the walk ran (or a root that is a file): nothing there to lose.
      if (!isGone(error)) skipped?.push({ path: dir, reason: unlistable(error) });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        followLink({ path, name: entry.name, realDir }, depth);
      } else if (entry.isDirectory()) {
        const real = join(realDir, entry.name);
        if (depth < maxDepth && !entered.has(real)) {
          entered.add(real);
          visit(path, real, depth + 1);
        }
      } else if (entry.isFile()) {
        if (accept(entry.name, path)) add(join(realDir, entry.name), path, false);
      } else if (accept(entry.name, path)) {
        skipped?.push({ path, reason: notRegular(path, entry) });
      }
    }
  };
  const followLink = (link: { path: string; name: string; realDir: string }, depth: number): void => {
    const { path, name } = link;
    let real: string;
    let stat: Stats;
    try {
      real = realpathSync(path);
      stat = statSync(real);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ELOOP")
        skipped?.push({ path, reason: `skipped symlink ${path}: it loops (ELOOP) and leads to no file` });
      // Otherwise a dangling link (its target was deleted): nothing to read.
      return;
    }
    const isDirectory = stat.isDirectory();
    const isFile = stat.isFile();
    if (!isDirectory && !isFile) {
      if (accept(name, path)) skipped?.push({ path, reason: notRegular(path, stat) });
      return;
    }
    if (isFile && !accept(name, path)) return;
    if (!inside(real)) {
      skipped?.push({ path, reason: `skipped symlink ${path} -> outside ${root}` });
      return;
    }
    if (isDirectory && (link.realDir === real || link.realDir.startsWith(real + sep))) {
      skipped?.push({ path, reason: `skipped symlink ${path} -> ${real}: it loops back to a folder holding it` });
      return;
    }
    if (isFile) add(real, path, true);
    else if (depth < maxDepth && !entered.has(real)) {
      entered.add(real);
      visit(path, real, depth + 1);
    }
  };
  visit(root, realRoot, 0);
  return [...found.values()].map((entry) => entry.path);
}

/** Why a path with a transcript's name is not read: what it is instead of a regular file. */
function notRegular(path: string, kind: Dirent | Stats): string {
  const what = kind.isFIFO()
    ? "a FIFO"
    : kind.isSocket()
      ? "a socket"
      : kind.isCharacterDevice() || kind.isBlockDevice()
        ? "a device"
        : "not a regular file";
  return `skipped ${path}: ${what}, never read as a transcript (reading it could block the scan)`;
}

function unlistable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? errorMessage(error);
  return `cannot list folder (${code}): its sessions are not imported until cairn may read it (check its permissions)`;
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
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
