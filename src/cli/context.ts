import type { Command } from "commander";
import type { Cairn } from "../cairn.js";

/** Options every command accepts (declared on the root program). */
export interface GlobalOptions {
  home?: string;
  json?: boolean;
}

/**
 * Opens cairn for one command with the root program's options, and closes it afterwards even on error.
 */
export async function withCairn<T>(
  command: Command,
  fn: (cairn: Cairn, options: GlobalOptions) => Promise<T> | T,
): Promise<T> {
  const options = command.optsWithGlobals<GlobalOptions>();
  // The facade pulls in the store, providers and recall: loaded only by commands that use it.
  const { Cairn } = await import("../cairn.js");
  const cairn = new Cairn(options.home ? { home: options.home } : {});
  try {
    return await fn(cairn, options);
  } finally {
    cairn.close();
  }
}
