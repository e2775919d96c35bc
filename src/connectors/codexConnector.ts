import { join } from "node:path";
import { shellCommand } from "../util/cairnInvocation.js";
import { codexHome } from "./agentHomes.js";
import { installCodexServer, installedCodexServerArgv, uninstallCodexServer } from "./codexConfigToml.js";
import { codexForwardedEnv } from "./codexServerEnv.js";
import { type Markers, removeBlock, upsertBlock } from "./markedBlock.js";
import { memoryInstructionsBlock } from "./memoryInstructionsBlock.js";
import type { Connector, InstallContext, ManagedEdit } from "./types.js";

export const AGENTS_MARKERS: Markers = {
  begin: "<!-- cairn:begin (added by 'cairn install codex'; 'cairn uninstall codex' removes it) -->",
  end: "<!-- cairn:end -->",
};

/**
 * Codex: the MCP server in `config.toml` (`[mcp_servers.cairn]`, started with `--background-run` so that
 * Codex launching it at session start also starts the pipeline; docs/integration.md says why not a Codex
 * hook), and a block in the global `AGENTS.md` that tells the agent to load its memory through that server.
 */
export const codexConnector: Connector = {
  agent: "codex",
  edits: (context) => [mcpServerEdit(context), agentsMdEdit(context)],
};

function mcpServerEdit(context: InstallContext): ManagedEdit {
  const server = {
    command: context.invocation.command,
    args: [...context.invocation.args, "mcp", "--background-run"],
    env_vars: codexForwardedEnv(),
  };
  const file = join(codexHome(context.env), "config.toml");
  return {
    file,
    what: "MCP server [mcp_servers.cairn]",
    install: (current) => installCodexServer(current, { server, file }),
    uninstall: (current) => uninstallCodexServer(current, { file }),
    installedArgv: (content) => installedCodexServerArgv(content, file),
    isEmpty: (content) => content.trim() === "",
  };
}

function agentsMdEdit(context: InstallContext): ManagedEdit {
  const inject = shellCommand(context.invocation, ["inject", "--cwd", "."]);
  const block = memoryInstructionsBlock(AGENTS_MARKERS, inject);
  return {
    file: join(codexHome(context.env), "AGENTS.md"),
    what: "memory instructions in AGENTS.md",
    install: (current) => upsertBlock(current ?? "", AGENTS_MARKERS, block),
    uninstall: (current) => removeBlock(current, AGENTS_MARKERS),
    // The block's command line is a fallback the agent may run; the MCP server is what doctor checks.
    installedArgv: () => [],
    isEmpty: (content) => content.trim() === "",
  };
}
