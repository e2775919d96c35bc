import module from "node:module";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * The folder of cairn's caches: in the user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`;
 * `~/Library/Caches` on macOS), never the package's own folder, which a global install leaves
 * read-only to the user and which `npm update` replaces. Undefined when there is no home to put it in.
 */
export function cacheRoot(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string | undefined {
  // The XDG base directory spec ignores a relative value.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "cairn");
  if (!home || !isAbsolute(home)) return undefined;
  if (platform === "darwin") return join(home, "Library", "Caches", "cairn");
  return join(home, ".cache", "cairn");
}

/** Where Node keeps the compiled code of cairn's modules between runs. */
export function compileCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string | undefined {
  const root = cacheRoot(env, platform, home);
  return root === undefined ? undefined : join(root, "compile-cache");
}

/**
 * Where the program's code cache is kept (src/cli/loadProgram.ts): undefined under
 * `NODE_DISABLE_COMPILE_CACHE` (one switch for both caches) or without a home.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const root = cacheRoot(env, process.platform, userHome());
  return root === undefined ? undefined : join(root, "code-cache");
}

function userHome(): string {
  try {
    return homedir();
  } catch {
    // No home directory for this user (a service account): nothing to cache in.
    return "";
  }
}

/**
 * Turns on Node's compile cache (Node >= 22.1) for the modules loaded after this call: compiling the
 * program's modules is a large part of a short command such as `cairn recall` (docs/decisions/startup.md).
 * Node keys each entry by the file and its content and keeps one subfolder per Node.js version, so an
 * upgrade of cairn or of Node.js never reuses a stale entry. Harmless when unavailable: a Node.js
 * without the API, `NODE_DISABLE_COMPILE_CACHE`, a folder that cannot be written (Node then compiles
 * as before and says nothing). `NODE_COMPILE_CACHE`, when set, has already turned it on at Node's
 * start in the folder it names, which this call leaves as it is.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  // Typed by hand: @types/node here follows an older Node.js, which lacks the function.
  const enable = (module as { enableCompileCache?: (directory?: string) => unknown }).enableCompileCache;
  if (!enable || env.NODE_DISABLE_COMPILE_CACHE) return;
  const directory = compileCacheDir(env, process.platform, userHome());
  if (!directory) return;
  try {
    enable(directory);
  } catch {
    // A cache is an optimisation: whatever keeps it from working must not keep the command from running.
  }
}
