import { isAbsolute, join } from "node:path";
import { folderFromEnv } from "../folderFromEnv.js";
import { NO_INJECTION_CAP } from "../noInjectionCap.js";
import type { AgentDescriptor } from "../types.js";

/** OpenCode (anomalyco/opencode): config in the XDG config folder, sessions in the XDG data folder. */
export const opencode = {
  name: "opencode",
  displayName: "OpenCode",
  environment: [
    { name: "XDG_CONFIG_HOME", means: "holds OpenCode's config folder, opencode/ (default ~/.config)" },
    { name: "XDG_DATA_HOME", means: "holds OpenCode's data folder, opencode/ (default ~/.local/share)" },
    { name: "OPENCODE_DB", means: "OpenCode's session database (a relative name lives in its data folder)" },
  ],
  configFolder: (env, home) =>
    join(folderFromEnv({ env, name: "XDG_CONFIG_HOME", home }) ?? join(home, ".config"), "opencode"),
  sessionFolders(env, home) {
    const dataFolder = join(
      folderFromEnv({ env, name: "XDG_DATA_HOME", home }) ?? join(home, ".local", "share"),
      "opencode",
    );
    const db = env.OPENCODE_DB?.trim();
    // ":memory:" is an in-process database with nothing on disk.
    if (db && db !== ":memory:") return [isAbsolute(db) ? db : join(dataFolder, db)];
    return [dataFolder];
  },
  injection: NO_INJECTION_CAP,
  mcp: {},
  install: { connector: true },
  docs: [
    "https://opencode.ai/docs/config/",
    "https://opencode.ai/docs/mcp-servers/",
    "https://opencode.ai/docs/rules/",
  ],
} as const satisfies AgentDescriptor;
