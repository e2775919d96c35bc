import { realpathSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/**
 * The node binary to name in agents' configs: the first `node` on PATH when it is this very binary
 * through a link, else this process's own path. `process.execPath` is the resolved file, which for a
 * Homebrew or other versioned install sits in a folder named for the version
 * (`.../Cellar/node/24.1.0/bin/node`) that the next upgrade deletes, while the link on PATH
 * (`/opt/homebrew/bin/node`) follows upgrades. A shim (Volta, asdf) is another program and is not
 * taken, and where node itself lives in a versioned folder (nvm) no path survives removing that
 * version: `cairn doctor` says so.
 */
export function stableNodePath(env: NodeJS.ProcessEnv, execPath = process.execPath): string {
  const real = realOrUndefined(execPath);
  if (real === undefined) return execPath;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, "node");
    if (realOrUndefined(candidate) === real) return candidate;
  }
  return execPath;
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The folder of `node`'s path named for a Node.js version (`v22.14.0` under nvm, `24.1.0` in Homebrew's
 * Cellar), or undefined: such a folder goes when that version is removed or upgraded, and with it every
 * hook and MCP entry that names it.
 */
export function versionedFolder(node: string): string | undefined {
  return node.split(/[\\/]/).find((segment) => /^v?\d+\.\d+\.\d+$/.test(segment));
}
