import { homedir } from "node:os";
import { mainWorktreeRoot } from "./projectKey.js";

/** The content-hash mark of a session excluded by `memories.exclude`: its row stays, its items do not. */
export const EXCLUDED_MARK = "excluded";

/** Whether a session with this cwd and project key is excluded. */
export type Exclusion = (cwd: string | null, projectKey: string | null) => boolean;

/** The pattern of `memories.exclude` that covers a session with this cwd and project key, or undefined. */
export type ExclusionMatch = (cwd: string | null, projectKey: string | null) => string | undefined;

export interface ExclusionOptions {
  home?: string;
  /**
   * Whether paths compare without case. Default: on macOS and Windows, whose usual file systems do
   * not tell `~/Work` from `~/work`; on Linux a path is case-sensitive like its file system.
   */
  ignoreCase?: boolean;
  /** The main checkout of a linked git worktree (tests replace the disk lookup). */
  mainWorktree?: (cwd: string) => string | undefined;
}

/** Project keys name a remote or a folder by prefix; any other pattern is a path. */
const KEY_PATTERN = /^(?:git|root|path):/;

/**
 * Why `glob` is not a pattern `memories.exclude` understands, or undefined when it is. Only `*` (within
 * one path segment), `**` (across segments) and `?` are supported: no glob matcher is a direct
 * dependency, and Node's `path.matchesGlob` is experimental in the Node versions cairn supports.
 */
export function globProblem(glob: string): string | undefined {
  if (glob.trim().length === 0) return "an empty pattern matches nothing";
  const unsupported = /[[\]{}!]/.exec(glob);
  if (unsupported) return `'${unsupported[0]}' is not supported (only *, ** and ? are)`;
  if (/\*\*\*/.test(glob)) return "'***' is not a pattern (use ** for any folders)";
  return undefined;
}

/**
 * A glob as an anchored regular expression: `**` matches across `/`, `*` and `?` within one segment,
 * `~` at the start is the home folder. A path pattern (anything but a `git:`, `root:` or `path:` key)
 * names folders: it matches them and everything below, with or without a trailing `/` or `/**`
 * (a pattern naming folder F covers F's subfolder F/api). A project-key pattern matches the key exactly.
 */
export function globToRegExp(glob: string, options: ExclusionOptions = {}): RegExp {
  const problem = globProblem(glob);
  if (problem) throw new Error(`bad glob '${glob}': ${problem}`);
  const home = options.home ?? homedir();
  const isPath = !KEY_PATTERN.test(glob);
  let expanded = slashes(glob === "~" || glob.startsWith("~/") ? home + glob.slice(1) : glob);
  if (isPath) expanded = expanded.replace(/(?:\/\*\*)+$/, "").replace(/\/+$/, "") || "/";
  let source = "";
  for (let index = 0; index < expanded.length; index++) {
    const char = expanded[index]!;
    if (expanded.startsWith("**/", index)) {
      source += "(?:.*/)?";
      index += 2;
    } else if (expanded.startsWith("**", index)) {
      source += ".*";
      index += 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^$()|\\]/g, "\\$&");
  }
  if (isPath) source = expanded === "/" ? "/.*" : `${source}(?:/.*)?`;
  return new RegExp(`^${source}$`, (options.ignoreCase ?? caseInsensitivePaths()) ? "i" : "");
}

function caseInsensitivePaths(): boolean {
  return process.platform === "darwin" || process.platform === "win32";
}

/**
 * Which pattern covers a session. A path pattern is tried on the cwd, on the folder a `root:` or
 * `path:` key names, and, for a linked git worktree elsewhere, on the main checkout it belongs to
 * (looked up once per cwd); a key pattern on the project key.
 */
export function exclusionMatcher(
  globs: readonly string[] | undefined,
  options: ExclusionOptions = {},
): ExclusionMatch | undefined {
  if (!globs || globs.length === 0) return undefined;
  const patterns = globs.map((glob) => ({ glob, regex: globToRegExp(glob, options), isPath: !KEY_PATTERN.test(glob) }));
  const lookup = options.mainWorktree ?? mainWorktreeRoot;
  const worktrees = new Map<string, string | undefined>();
  const mainWorktree = (cwd: string) => {
    if (!worktrees.has(cwd)) worktrees.set(cwd, lookup(cwd));
    return worktrees.get(cwd);
  };
  return (cwd, projectKey) => {
    const paths = [cwd, keyFolder(projectKey)].flatMap((path) => (path ? [slashes(path)] : []));
    const byKey = patterns.find((pattern) => projectKey !== null && pattern.regex.test(projectKey));
    const byPath = patterns.find((pattern) => pattern.isPath && paths.some((path) => pattern.regex.test(path)));
    if (byKey ?? byPath) return (byKey ?? byPath)?.glob;
    const main = cwd && patterns.some((pattern) => pattern.isPath) ? mainWorktree(cwd) : undefined;
    return main ? patterns.find((pattern) => pattern.isPath && pattern.regex.test(slashes(main)))?.glob : undefined;
  };
}

/** The exclusion of a list of globs, or undefined when there are none. */
export function exclusionOf(
  globs: readonly string[] | undefined,
  options: ExclusionOptions = {},
): Exclusion | undefined {
  const match = exclusionMatcher(globs, options);
  return match ? (cwd, projectKey) => match(cwd, projectKey) !== undefined : undefined;
}

/** The folder of a `root:` or `path:` project key. */
function keyFolder(projectKey: string | null): string | undefined {
  return projectKey?.startsWith("root:") || projectKey?.startsWith("path:") ? projectKey.slice(5) : undefined;
}

/** Windows paths (and patterns written with backslashes) compared with forward slashes. */
function slashes(path: string): string {
  return process.platform === "win32" ? path.replace(/\\/g, "/") : path;
}

/**
 * The refusal of a memory written from inside an excluded folder (or into a scope the patterns name):
 * nothing of an excluded project is stored, and a global memory written from one would carry its text
 * into every other project, so the scope does not matter. Undefined when the write may go ahead.
 */
export function excludedWriteProblem(
  match: ExclusionMatch | undefined,
  write: { cwd: string | null; scope: string },
): string | undefined {
  const pattern = match?.(write.cwd, write.scope);
  if (pattern === undefined) return undefined;
  const what = write.cwd !== null && match?.(write.cwd, null) !== undefined ? write.cwd : `scope ${write.scope}`;
  return `${what} is excluded by memories.exclude ('${pattern}'), so cairn stores nothing from it; remember from a folder that is not excluded, or remove the pattern ('cairn config get memories.exclude')`;
}
