import { projectIdentity } from "../project/projectKey.js";
import type { RememberInput } from "./types.js";

/** The scope a memory lands in and a recall searches when none is named: the project of the caller's cwd. */
export const PROJECT_SCOPE = "project";
export const GLOBAL_SCOPE = "global";
/**
 * Where facts of a session with no known project go (a push without `cwd`, a Gemini chat whose project
 * cannot be told): a label, so recall finds them when asked (`--scope no-project`) and no project's
 * injection or default recall shows them. Global would put one repository's facts in every project.
 */
export const NO_PROJECT_SCOPE = "no-project";

/**
 * Where a remembered entry is stored: `project` (the default) becomes the key of the project of `cwd`;
 * `global` and any other label stay as given. `who` defaults to the user, since an entry stored through
 * the API or the CLI is the user's own statement unless the caller says otherwise.
 */
export function rememberScope(
  entry: RememberInput,
  cwd: string,
  projectKey: (cwd: string) => string = projectKeyOf,
): RememberInput & { scope: string } {
  const scope = entry.scope === undefined || entry.scope === PROJECT_SCOPE ? projectKey(cwd) : entry.scope;
  return { ...entry, scope, who: entry.who ?? "user" };
}

function projectKeyOf(cwd: string): string {
  return projectIdentity(cwd).key;
}

/**
 * The project key of a folder, looked up once per folder for the life of the returned function: a
 * command storing a file of memories asks for the same folder's key for every line, and each lookup
 * walks up the folders looking for `.git`.
 */
export function projectKeysOnce(): (cwd: string) => string {
  const keys = new Map<string, string>();
  return (cwd) => {
    let key = keys.get(cwd);
    if (key === undefined) {
      key = projectKeyOf(cwd);
      keys.set(cwd, key);
    }
    return key;
  };
}

/**
 * The scopes a recall searches: `project` (the default) is the project of `cwd` plus global, `all` is
 * every scope, and any other label is that scope alone.
 */
export function recallScopes(scope: string | undefined, cwd: string): string[] | "all" {
  const requested = scope ?? PROJECT_SCOPE;
  if (requested === "all") return "all";
  if (requested === PROJECT_SCOPE) return [projectIdentity(cwd).key, GLOBAL_SCOPE];
  return [requested];
}
