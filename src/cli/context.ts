import { resolve } from "node:path";
import type { Command } from "commander";
import type { Cairn } from "../cairn.js";
import { cairnHome, cairnPaths } from "../config/paths.js";
import { recordKnownClean } from "../store/storeCheck.js";
import { explainStoreError } from "../store/storeFault.js";
import { invocation } from "./invocation.js";

/** Options every command accepts (declared on the root program). */
export interface GlobalOptions {
  home?: string;
  json?: boolean;
}

/**
 * Opens cairn for one command with the root program's options, and closes it afterwards even on error.
 * A failure of the store itself (damaged, full disk, read-only) becomes one line naming the store and
 * what to do; a damaged store is marked so that later commands refuse to write into it.
 */
export async function withCairn<T>(
  command: Command,
  fn: (cairn: Cairn, options: GlobalOptions) => Promise<T> | T,
): Promise<T> {
  const options = command.optsWithGlobals<GlobalOptions>();
  const { resident } = invocation();
  if (resident) return withResidentCairn(options, fn);
  // The facade pulls in the store, providers and recall: loaded only by commands that use it. The
  // config comes from its cache when nothing it depends on changed (the schema library is most of it).
  const [{ Cairn }, { loadConfigCached }] = await Promise.all([
    import("../cairn.js"),
    import("../config/loadConfigCached.js"),
  ]);
  const home = options.home ?? cairnHome(process.env);
  const loadedConfig = await loadConfigCached({ file: cairnPaths(home).config, env: process.env });
  const cairn = new Cairn({ home, loadedConfig });
  let result: T;
  try {
    result = await fn(cairn, options);
  } catch (error) {
    throw explainStoreError(error, cairn.paths.database);
  } finally {
    cairn.close();
  }
  // The next command need not quick_check a store this one found clean and changed only through SQLite.
  recordKnownClean(cairn.paths.database);
  return result;
}

/** The memory root a command line names: `--home` (from its directory), else $CAIRN_HOME or ~/.cairn. */
export function homeOf(options: GlobalOptions): string {
  const { cwd, env, resident } = invocation();
  const home = options.home ? resolve(cwd, options.home) : cairnHome(env);
  if (resident && home !== resident.home) resident.decline("the command line names another memory root");
  return home;
}

/**
 * The resident process's open Cairn instead of a new one. It stays open after the command, and
 * records no known-clean fingerprint: it was checked when it opened, as the daemon's store is.
 */
async function withResidentCairn<T>(
  options: GlobalOptions,
  fn: (cairn: Cairn, options: GlobalOptions) => Promise<T> | T,
): Promise<T> {
  const resident = invocation().resident!;
  homeOf(options);
  const cairn = resident.acquire();
  try {
    return await fn(cairn, options);
  } catch (error) {
    throw explainStoreError(error, cairn.paths.database);
  } finally {
    resident.release(cairn);
  }
}
