import { createRequire } from "node:module";
import { dirname } from "node:path";

/**
 * The one line that stands for any failure to load SQLite's native module (better-sqlite3): built for
 * another Node.js or machine, missing for this platform, or refused by the loader. Every command, the
 * start hook and `doctor` print it instead of the loader's raw error, which names neither the package
 * nor what to run. Undefined for any other error.
 *
 * better-sqlite3 13 runs on Node-API, so a Node.js upgrade no longer needs a rebuild; what remains is a
 * binary compiled for another machine (a copied node_modules, a container image) or a platform the
 * package ships no binary for. Its `build-release` script compiles one for this Node.js and machine.
 */
export function nativeModuleFault(error: unknown): string | undefined {
  const cause = loaderErrorOf(error);
  if (!cause) return undefined;
  const message = cause.message;
  const versions = /NODE_MODULE_VERSION (\d+)\.[\s\S]*?requires\s+NODE_MODULE_VERSION (\d+)/.exec(message);
  const what = versions
    ? `was built for another Node.js (module version ${versions[1]}; this Node.js ${process.version} needs ${versions[2]})`
    : `cannot be loaded by this Node.js ${process.version} (${firstLine(message)})`;
  return `SQLite's native module (better-sqlite3) ${what}; fix it with: ${nativeModuleFixCommand()}`;
}

/**
 * Loads SQLite's native module and opens an in-memory database, throwing the loader's error when it
 * cannot: for a long-lived process (`cairn serve`), which would otherwise start and fail every request.
 */
export function loadNativeModule(): void {
  const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => { close(): void };
  new Database(":memory:").close();
}

/** Node-API version better-sqlite3 13 is built for; Node.js has it from 22.14 and 23.6 on. */
const NODE_API_NEEDED = 10;

/**
 * Set when this Node.js cannot run the installed better-sqlite3: version 13 on an older Node-API crashes
 * the process inside its first `new Database()` (a segmentation fault, no error to catch), so the CLI
 * refuses before. An older better-sqlite3 (a checkout not reinstalled yet) is left to run.
 */
export function unsupportedNodeFault(): string | undefined {
  const napi = Number(process.versions.napi);
  if (napi >= NODE_API_NEEDED) return undefined;
  let major = 0;
  try {
    const manifest = createRequire(import.meta.url)("better-sqlite3/package.json") as { version: string };
    major = Number.parseInt(manifest.version, 10);
  } catch {
    return undefined;
  }
  if (major < 13) return undefined;
  return `cairn needs Node.js 22.14 or later: this Node.js ${process.version} (Node-API ${napi}) cannot load SQLite's native module; install a current Node.js LTS and run cairn with it`;
}

/** The command that compiles better-sqlite3 for the running Node.js where cairn's copy of it is. */
export function nativeModuleFixCommand(): string {
  return `npm run build-release --prefix ${shellWord(betterSqliteDir())}`;
}

/** The loader's error in `error` or its causes (a store open wraps it), when it concerns better-sqlite3. */
function loaderErrorOf(error: unknown): Error | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    const loader = code === "ERR_DLOPEN_FAILED" || (code === "MODULE_NOT_FOUND" && /\.node'?$/m.test(current.message));
    if (loader && /better[-_]sqlite3/.test(current.message)) return current;
    current = current.cause;
  }
  return undefined;
}

function betterSqliteDir(): string {
  try {
    return dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json"));
  } catch {
    return "node_modules/better-sqlite3";
  }
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0]?.trim() ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** A path as one shell word: quoted only when it holds characters a shell would split or expand. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
