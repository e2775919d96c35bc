import module from "node:module";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * The folder where Node keeps the compiled code of cairn's modules between runs: the user's cache
 * folder (`$XDG_CACHE_HOME`, else `~/.cache`; `~/Library/Caches` on macOS), never the package's
 * own folder, which a global install leaves read-only to the user and which `npm update` replaces.
 * Undefined when there is no home to put it in.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string | undefined {
  // The XDG base directory spec ignores a relative value.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "cairn", "compile-cache");
  if (!home || !isAbsolute(home)) return undefined;
  if (platform === "darwin") return join(home, "Library", "Caches", "cairn", "compile-cache");
  return join(home, ".cache", "cairn", "compile-cache");
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
  let home = "";
  try {
    home = homedir();
  } catch {
    // No home directory for this user (a service account): nothing to cache in.
  }
  const directory = compileCacheDir(env, process.platform, home);
  if (!directory) return;
  try {
    enable(directory);
  } catch {
    // A cache is an optimisation: whatever keeps it from working must not keep the command from running.
  }
}
