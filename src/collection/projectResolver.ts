import { projectIdentity } from "../project/projectKey.js";
import type { SessionInfo } from "../sources/types.js";

/**
 * Resolves the project key of sessions, once per (cwd, recorded remote) within one pass: a scan of
 * thousands of sessions in a handful of repositories reads each repository's git config once.
 */
export function projectResolver(): (info: Pick<SessionInfo, "cwd" | "git">) => string | null {
  const cache = new Map<string, string>();
  return (info) => {
    if (!info.cwd) return info.git?.remote ? projectIdentity("/", info.git.remote).key : null;
    const cacheKey = `${info.cwd}\u0000${info.git?.remote ?? ""}`;
    let key = cache.get(cacheKey);
    if (key === undefined) {
      key = projectIdentity(info.cwd, info.git?.remote).key;
      cache.set(cacheKey, key);
    }
    return key;
  };
}
