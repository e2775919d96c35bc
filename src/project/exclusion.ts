import { homedir } from "node:os";

/** The content-hash mark of a session excluded by `memories.exclude`: its row stays, its items do not. */
export const EXCLUDED_MARK = "excluded";

/** Whether a session with this cwd and project key is excluded. */
export type Exclusion = (cwd: string | null, projectKey: string | null) => boolean;

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
 * `~` at the start is the home folder, and a trailing `/**` also matches the folder itself (a session
 * whose cwd is the excluded folder is excluded).
 */
export function globToRegExp(glob: string, home = homedir()): RegExp {
  const problem = globProblem(glob);
  if (problem) throw new Error(`bad glob '${glob}': ${problem}`);
  const expanded = glob === "~" || glob.startsWith("~/") ? home + glob.slice(1) : glob;
  let source = "";
  for (let index = 0; index < expanded.length; index++) {
    const char = expanded[index]!;
    if (expanded.startsWith("/**", index) && index + 3 === expanded.length) {
      source += "(?:/.*)?";
      break;
    }
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
  return new RegExp(`^${source}$`);
}

/** The exclusion of a list of globs (each matched against the cwd and the project key), or undefined. */
export function exclusionOf(globs: readonly string[] | undefined, home = homedir()): Exclusion | undefined {
  if (!globs || globs.length === 0) return undefined;
  const patterns = globs.map((glob) => globToRegExp(glob, home));
  return (cwd, projectKey) =>
    patterns.some(
      (pattern) => (cwd !== null && pattern.test(cwd)) || (projectKey !== null && pattern.test(projectKey)),
    );
}
