import { existsSync } from "node:fs";
import { loadConfigCached } from "../config/loadConfigCached.js";
import { cairnPaths } from "../config/paths.js";
import { buildInjection, type Injection } from "./inject.js";
import { injectionBudgetFor } from "./injectionBudget.js";
import { storeRemembered } from "./rememberedReader.js";

/**
 * Injection with the configuration, two files and, when the store exists, a short read-only look at it
 * for remembered memories: the path an agent's start hook and `cairn inject` take, so that neither
 * loads the providers or recall, nor SQLite when there is no store. An empty block carries the reason
 * (`reason`), read from the store only then.
 */
export async function injectFor(options: {
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The agent whose budget applies (`claude-code`: its character cap); unknown names are an error. */
  agent?: string;
}): Promise<Injection> {
  const paths = cairnPaths(options.home);
  const config = await loadConfigCached({ file: paths.config, env: options.env });
  const agent = options.agent ?? "generic";
  const tokenLimit = config.memories.summaryInjectionTokenLimit;
  injectionBudgetFor(agent, tokenLimit); // a misspelt --agent is an error, not the token budget
  const remembered = await storeRemembered(paths.database, config.memories.rememberedInjectionLimit);
  // A store that could not be read for the remembered lists (locked, damaged) is not tried again for
  // the reason: the hook would wait on the lock twice.
  let storeError: { error: unknown } | undefined;
  const injection = buildInjection({
    memoriesRoot: paths.memories,
    cwd: options.cwd,
    tokenLimit,
    agent,
    remembered: remembered && {
      ...remembered,
      read: (request) => {
        try {
          return remembered.read(request);
        } catch (error) {
          storeError = { error };
          throw error;
        }
      },
    },
  });
  if (injection.text !== "") return injection;
  // Only an empty block pays for saying why: a read-only look at the folder's sessions, when there is
  // a store (without one, SQLite is not loaded at all).
  const [{ emptyInjectionReason }, reader] = await Promise.all([
    import("./emptyInjectionReason.js"),
    existsSync(paths.database) ? import("./readOnlyFolderState.js") : undefined,
  ]);
  const now = Date.now();
  const reason = emptyInjectionReason({
    config,
    memoriesRoot: paths.memories,
    cwd: options.cwd,
    workspace: injection.project,
    now,
    state: (folder) => {
      if (storeError) throw storeError.error;
      return reader?.readOnlyFolderState({ databasePath: paths.database, config, folder, now });
    },
  });
  return { ...injection, reason };
}
