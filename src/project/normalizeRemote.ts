/**
 * Turns the many spellings of one git remote into one identity:
 * `git@github.com:Org/Repo.git`, `https://user@github.com/Org/Repo`, `ssh://git@github.com/Org/Repo.git`
 * all become `github.com/org/repo`. Hosts and paths are lowercased because the major forges treat
 * them case-insensitively; credentials and ports are dropped.
 */
export function normalizeRemote(url: string): string | undefined {
  let rest = url.trim();
  if (rest.length === 0) return undefined;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(rest);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) {
    rest = `${scp[1]}/${scp[2]}`;
  } else {
    const parsed = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/:]+)(?::\d+)?(\/.*)?$/i.exec(rest);
    if (parsed) rest = `${parsed[1]}${parsed[2] ?? ""}`;
    else if (rest.startsWith("/") || rest.startsWith("file:")) return undefined;
  }
  rest = rest
    .replace(/\/+$/, "")
    .replace(/\.git$/i, "")
    .replace(/\/+/g, "/");
  return rest.includes("/") ? rest.toLowerCase() : undefined;
}
