import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { normalizeRemote } from "./normalizeRemote.js";

export interface ProjectIdentity {
  /** Stable key: `git:<normalized remote>`, `root:<canonical git root>` or `path:<cwd>`. */
  key: string;
  /** A short human name (repository or folder name). */
  name: string;
}

/** Whether a memory scope is a project's key (as `projectIdentity` makes them) rather than `global` or a label. */
export function isProjectKey(scope: string): boolean {
  return /^(?:git|root|path):./.test(scope);
}

/**
 * The project a directory belongs to: the normalized `origin` remote when there is one, else the main
 * git root shared by all worktrees, else the directory itself. A recorded remote (Codex stores one)
 * wins over the disk, so a moved or deleted checkout keeps its identity. Reads files only: no `git`
 * process is spawned, because this runs on the hook path of every agent start.
 */
export function projectIdentity(cwd: string, recordedRemote?: string): ProjectIdentity {
  const fromRecord = recordedRemote ? normalizeRemote(recordedRemote) : undefined;
  if (fromRecord) return { key: `git:${fromRecord}`, name: basename(fromRecord) };
  const absolute = resolve(cwd);
  const repo = findGitRepo(absolute);
  if (repo) {
    const remote = readOriginUrl(repo.commonDir);
    const normalized = remote ? normalizeRemote(remote) : undefined;
    if (normalized) return { key: `git:${normalized}`, name: basename(normalized) };
    return { key: `root:${repo.root}`, name: basename(repo.root) };
  }
  return { key: `path:${absolute}`, name: basename(absolute) || absolute };
}

/**
 * The main working tree of the repository `cwd` is in, when that is another folder: for a linked
 * worktree (`git worktree add` elsewhere), the checkout it belongs to. Undefined outside git or in
 * the main tree itself. Reads a few small files, no `git` process.
 */
export function mainWorktreeRoot(cwd: string): string | undefined {
  const absolute = resolve(cwd);
  const repo = findGitRepo(absolute);
  if (!repo) return undefined;
  const inside = relative(repo.root, absolute);
  return inside.startsWith("..") || isAbsolute(inside) ? repo.root : undefined;
}

interface GitRepo {
  /** The main working tree root (for a linked worktree: the root of the repository it belongs to). */
  root: string;
  /** The shared .git directory holding config. */
  commonDir: string;
}

function findGitRepo(start: string): GitRepo | undefined {
  let dir = start;
  for (;;) {
    const dotGit = join(dir, ".git");
    const found = inspectDotGit(dotGit, dir);
    if (found) return found;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function inspectDotGit(dotGit: string, worktree: string): GitRepo | undefined {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return { root: worktree, commonDir: dotGit };
  if (!stat.isFile()) return undefined;
  // A linked worktree: `.git` is a file `gitdir: <main .git>/worktrees/<name>` whose `commondir` names the main .git.
  const match = /^gitdir:\s*(.+)$/m.exec(safeRead(dotGit) ?? "");
  if (!match) return undefined;
  const gitDir = resolvePath(worktree, match[1]!.trim());
  const common = safeRead(join(gitDir, "commondir"))?.trim();
  const commonDir = common ? resolvePath(gitDir, common) : gitDir;
  const root = basename(commonDir) === ".git" ? dirname(commonDir) : worktree;
  return { root, commonDir };
}

/** The `origin` remote's URL, else the first remote's. */
function readOriginUrl(commonDir: string): string | undefined {
  const config = safeRead(join(commonDir, "config"));
  if (!config) return undefined;
  let remote: string | undefined;
  let firstUrl: string | undefined;
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      remote = /^\[remote\s+"([^"]+)"\]$/.exec(line)?.[1];
      continue;
    }
    const url = /^url\s*=\s*(.+)$/.exec(line)?.[1]?.trim();
    if (!url || remote === undefined) continue;
    if (remote === "origin") return url;
    firstUrl ??= url;
  }
  return firstUrl;
}

function resolvePath(base: string, path: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

function safeRead(path: string): string | undefined {
  try {
    return existsSync(path) ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
}
