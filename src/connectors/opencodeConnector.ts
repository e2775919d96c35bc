import { existsSync } from "node:fs";
import { join } from "node:path";
import { shellCommand } from "../util/cairnInvocation.js";
import { opencodeConfigDir } from "./agentHomes.js";
import { editJsoncLike, parseJsoncObject } from "./jsoncDocument.js";
import type { JsonObject } from "./jsonDocument.js";
import { installedServerArgv, removeServerEntry, setServerEntry } from "./jsonServerEntry.js";
import { type Markers, removeBlock, upsertBlock } from "./markedBlock.js";
import { memoryInstructionsBlock } from "./memoryInstructionsBlock.js";
import type { Connector, InstallContext, ManagedEdit } from "./types.js";

export const OPENCODE_AGENTS_MARKERS: Markers = {
  begin: "<!-- cairn:begin (added by 'cairn install opencode'; 'cairn uninstall opencode' removes it) -->",
  end: "<!-- cairn:end -->",
};

/**
 * OpenCode: the MCP server `mcp.cairn` (a local server, started with `--background-run` so that OpenCode
 * launching it at startup also starts the pipeline) in the global config, and a block in the global
 * `AGENTS.md` that tells the agent to load its memory through that server. OpenCode's only way for a
 * plugin to add to the prompt is an experimental hook, so cairn uses the documented rules file instead
 * (docs/integration.md).
 */
export const opencodeConnector: Connector = {
  agent: "opencode",
  edits: (context) => [mcpServerEdit(context), agentsMdEdit(context)],
};

/**
 * The global config OpenCode reads: `opencode.json`, else an existing `opencode.jsonc` (OpenCode accepts
 * either name), else a new `opencode.json`.
 */
export function opencodeConfigFile(env: NodeJS.ProcessEnv): string {
  const dir = opencodeConfigDir(env);
  const jsonc = join(dir, "opencode.jsonc");
  const json = join(dir, "opencode.json");
  return !existsSync(json) && existsSync(jsonc) ? jsonc : json;
}

function mcpServerEdit(context: InstallContext): ManagedEdit {
  const file = opencodeConfigFile(context.env);
  // OpenCode starts a local server with its own environment (plus `environment`), in the project folder.
  const server = {
    type: "local",
    command: [context.invocation.command, ...context.invocation.args, "mcp", "--background-run"],
    enabled: true,
  };
  return {
    file,
    what: "MCP server 'cairn' (mcp.cairn)",
    install(current) {
      const config = parseJsoncObject(current, file, "cairn install opencode");
      const fresh = current === null || current.trim() === "";
      // A new file gets OpenCode's schema line first, as OpenCode's own examples start.
      const base: JsonObject = fresh ? { $schema: "https://opencode.ai/config.json", ...config } : config;
      return setServerEntry({ settings: base, key: "mcp", file, agent: "opencode" }, server)
        ? editJsoncLike(current, base)
        : (current ?? "");
    },
    uninstall(current) {
      const config = parseJsoncObject(current, file, "cairn uninstall opencode");
      return removeServerEntry(config, "mcp") ? editJsoncLike(current, config) : current;
    },
    installedArgv: (content) => installedServerArgv(parseJsoncObject(content, file, "cairn install opencode"), "mcp"),
    isEmpty: (content) => {
      const left = Object.keys(parseJsoncObject(content, file, "cairn uninstall opencode")).filter(
        (key) => key !== "$schema",
      );
      return left.length === 0;
    },
  };
}

function agentsMdEdit(context: InstallContext): ManagedEdit {
  const inject = shellCommand(context.invocation, ["inject", "--agent", "opencode", "--cwd", "."]);
  const block = memoryInstructionsBlock(OPENCODE_AGENTS_MARKERS, inject);
  return {
    file: join(opencodeConfigDir(context.env), "AGENTS.md"),
    what: "memory instructions in AGENTS.md",
    install: (current) => upsertBlock(current ?? "", OPENCODE_AGENTS_MARKERS, block),
    uninstall: (current) => removeBlock(current, OPENCODE_AGENTS_MARKERS),
    // The block's command line is a fallback the agent may run; the MCP server is what doctor checks.
    installedArgv: () => [],
    isEmpty: (content) => content.trim() === "",
  };
}
