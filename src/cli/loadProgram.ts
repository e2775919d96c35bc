import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { dirname, join } from "node:path";
import { constants, Script } from "node:vm";

/** What the program's bundle exports (src/cli/runCli.ts). */
export interface Program {
  runCli(argv: string[]): Promise<number>;
}

/** Where one command's code cache is kept: a folder per build, a file per Node.js and command. */
export function codeCacheFile(root: string, buildId: string, command: string | undefined): string {
  // A command line's first word names the file: only a plain word, never a path or anything odd.
  const name = command !== undefined && /^[a-z][a-z-]{0,31}$/.test(command) ? command : "other";
  return join(root, buildId, `${process.version}-${process.arch}-${name}.bin`);
}

/**
 * Runs the program's bundle (dist/cli/program.cjs) as Node would require it, with V8's code cache of
 * an earlier run of the same command. Node's own compile cache keeps only what V8 compiled while
 * loading a file; the functions a command calls later are parsed and compiled again by every run,
 * about a fifth of a cold `cairn recall` (docs/decisions/startup.md). This cache is made at the end of
 * the run that lacked it, so it holds every function that command used.
 *
 * The cache is a file per build (`buildId`, a hash of the bundle's content: V8 checks a cache against
 * its source by length only; the newest few builds keep theirs), Node.js version and command; V8 itself
 * rejects one of another V8 or other flags, which is then made again. Written whole or not at all (a temporary file renamed), in a folder
 * of the user's; a cache that cannot be read or written changes nothing but the speed.
 */
export function loadProgram(file: string, options: { cacheFile: string | undefined }): Program {
  const source = readFileSync(file, "utf8");
  let cachedData: Buffer | undefined;
  try {
    if (options.cacheFile) cachedData = readFileSync(options.cacheFile);
  } catch {
    // None yet: made at the end of this run.
  }
  // The bundle is written as the function node's loader would wrap it in (scripts/bundle-cli.mjs).
  const script = new Script(source, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // The program imports some packages on demand (undici, the local-model runtime).
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const { cacheFile } = options;
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected))
    process.once("exit", () => saveCodeCache(cacheFile, script));
  const module = { exports: {} as Program };
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
  return module.exports;
}

function saveCodeCache(cacheFile: string, script: Script): void {
  try {
    const folder = dirname(cacheFile);
    const root = dirname(folder);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const partial = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, cacheFile);
    // After this build's cache is in place: another process clearing folders at the same time (a
    // folder gone between listing and stat) costs the clean-up, never this cache.
    dropOlderBuilds(root);
  } catch {
    // A cache is an optimisation: a full disk or a read-only folder must not fail the command.
  }
}

/** How many builds keep their caches: two installs used in turn (a global one, a checkout) keep theirs. */
const KEPT_BUILDS = 4;

/** An upgrade leaves the older builds' caches of no use: all but the newest few folders are removed. */
function dropOlderBuilds(root: string): void {
  const builds = readdirSync(root)
    .filter((entry) => /^cairn-build-[0-9a-f]{16}$/.test(entry))
    .map((entry) => ({ path: join(root, entry), changed: statSync(join(root, entry)).mtimeMs }))
    .sort((a, b) => b.changed - a.changed);
  for (const { path } of builds.slice(KEPT_BUILDS)) rmSync(path, { recursive: true, force: true });
}
