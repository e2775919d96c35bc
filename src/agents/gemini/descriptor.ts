import { join } from "node:path";
import { folderFromEnv } from "../folderFromEnv.js";
import { NO_INJECTION_CAP } from "../noInjectionCap.js";
import type { AgentDescriptor } from "../types.js";

// GEMINI_CLI_HOME "specifies the root directory for Gemini CLI's user-level configuration": the
// folder is `.gemini` inside it (docs/reference/configuration.md, "Environment variables").
const configFolder = (env: NodeJS.ProcessEnv, home: string) =>
  join(folderFromEnv({ env, name: "GEMINI_CLI_HOME", home }) ?? home, ".gemini");

/** Google's Gemini CLI: settings.json and chats (`tmp/<project>/chats/`) in `~/.gemini`. */
export const gemini = {
  name: "gemini",
  displayName: "Gemini CLI",
  environment: [{ name: "GEMINI_CLI_HOME", means: "the folder holding Gemini CLI's .gemini (default ~)" }],
  configFolder,
  sessionFolders: (env, home) => [configFolder(env, home)],
  injection: NO_INJECTION_CAP,
  mcp: {},
  install: { connector: true },
  docs: ["https://geminicli.com/docs/"],
} as const satisfies AgentDescriptor;
