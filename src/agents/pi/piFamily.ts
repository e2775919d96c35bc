import { join } from "node:path";
import { folderFromEnv } from "../folderFromEnv.js";
import { NO_INJECTION_CAP } from "../noInjectionCap.js";

/**
 * What pi (badlogic/pi-mono) and its fork oh-my-pi share: one agent folder (`<variable>`, a leading `~`
 * expanded as both agents do, else `~/<dot folder>/agent`) holding settings, extensions and `sessions/`;
 * an extension, not hooks or MCP, as the way in ("No MCP", pi's README), and no documented cap.
 */
export function piFamily(variable: string, dotFolder: string) {
  const configFolder = (env: NodeJS.ProcessEnv, home: string) =>
    folderFromEnv({ env, name: variable, home, tilde: true }) ?? join(home, dotFolder, "agent");
  return {
    configFolder,
    sessionFolders: (env: NodeJS.ProcessEnv, home: string) => [configFolder(env, home)],
    injection: NO_INJECTION_CAP,
    mcp: {},
    install: { connector: true },
  } as const;
}
