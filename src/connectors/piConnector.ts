import { existsSync } from "node:fs";
import { join } from "node:path";
import { CairnError } from "../util/errors.js";
import { ompAgentDir, piAgentDir } from "./agentHomes.js";
import { extensionArgv, PI_EXTENSION_HEADER, piExtensionSource } from "./piExtension.js";
import type { Connector, InstallContext, ManagedEdit } from "./types.js";

/**
 * pi (badlogic/pi-mono) and oh-my-pi (can1357/oh-my-pi): one extension file, `extensions/cairn.ts` in the
 * agent's folder, which both auto-discover (pi: `~/.pi/agent/extensions/*.ts`; omp:
 * `~/.omp/agent/extensions/*.ts`). A file of cairn's own: no setting of the user's is edited, and
 * uninstall deletes it. Neither agent has a hook runner or MCP that cairn could configure instead
 * (pi's README: "No MCP"; docs/integration.md cites the sources).
 */
export const piConnector: Connector = {
  agent: "pi",
  edits: (context) => [extensionEdit(context, "pi", piAgentDir(context.env))],
};

export const ompConnector: Connector = {
  agent: "omp",
  edits: (context) => [extensionEdit(context, "omp", ompAgentDir(context.env))],
};

function extensionEdit(context: InstallContext, agent: "pi" | "omp", dir: string): ManagedEdit {
  const file = join(dir, "extensions", "cairn.ts");
  return {
    file,
    what: "extension (memory at session start, cairn_recall and cairn_read tools)",
    install(current) {
      if (agent === "omp" && current === null && !existsSync(dir)) {
        // omp reads `~/.pi/agent` while `~/.omp/agent` does not exist; creating it would switch omp away
        // from the user's pi folder (packages/coding-agent/src/discovery/builtin.ts, getConfigDirs).
        throw new CairnError(
          "connector_conflict",
          `${dir} does not exist, so cairn changed nothing: run omp once to create it, or, if omp uses ~/.pi/agent, run 'cairn install pi'`,
        );
      }
      if (current !== null && !current.startsWith(PI_EXTENSION_HEADER)) throw notOurs(file, agent);
      return piExtensionSource({ invocation: context.invocation, agent, uninstall: `cairn uninstall ${agent}` });
    },
    // The whole file is cairn's: uninstall leaves nothing of it (and a file of the user's is never touched).
    uninstall: (current) => (current.startsWith(PI_EXTENSION_HEADER) ? "" : current),
    installedArgv: (content) => (content.startsWith(PI_EXTENSION_HEADER) ? [extensionArgv(content)] : []),
    isEmpty: (content) => content === "",
    ownsFile: true,
  };
}

function notOurs(file: string, agent: string): CairnError {
  return new CairnError(
    "connector_conflict",
    `${file} exists and was not written by cairn, so cairn changed nothing; rename it and run 'cairn install ${agent}' again`,
  );
}
