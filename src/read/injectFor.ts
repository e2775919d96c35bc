import { loadConfigCached } from "../config/loadConfigCached.js";
import { cairnPaths } from "../config/paths.js";
import { buildInjection, type Injection } from "./inject.js";

/**
 * Injection with nothing but the configuration and two files: the path an agent's start hook and
 * `cairn inject` take, so that neither loads the store, the providers or recall.
 */
export async function injectFor(options: { home: string; cwd: string; env: NodeJS.ProcessEnv }): Promise<Injection> {
  const paths = cairnPaths(options.home);
  const config = await loadConfigCached({ file: paths.config, env: options.env });
  return buildInjection({
    memoriesRoot: paths.memories,
    cwd: options.cwd,
    tokenLimit: config.memories.summaryInjectionTokenLimit,
  });
}
