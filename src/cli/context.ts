import type { Command } from "commander";
import type { Cairn } from "../cairn.js";
import { recordKnownClean } from "../store/storeCheck.js";
import { explainStoreError } from "../store/storeFault.js";

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
  // The facade pulls in the store, providers and recall: loaded only by commands that use it.
  const { Cairn } = await import("../cairn.js");
  const cairn = new Cairn(options.home ? { home: options.home } : {});
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
