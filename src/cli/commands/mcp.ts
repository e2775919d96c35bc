import { resolve } from "node:path";
import type { Command } from "commander";
import { MCP_TOOL_NAMES } from "../../server/mcpToolNames.js";
import type { GlobalOptions } from "../context.js";
import { nonEmpty } from "../flags.js";

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .description(`MCP server on stdio; its tools: ${MCP_TOOL_NAMES.join(", ")}`)
    .option(
      "--cwd <dir>",
      "directory whose project is 'this project' (default: the current directory)",
      nonEmpty("--cwd", "a directory"),
    )
    .option(
      "--background-run",
      "on start, run the pipeline in the background as a session-start hook would (for agents without hooks)",
    )
    .action(async (options: { cwd?: string; backgroundRun?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const [{ Cairn }, { createMcpServer }, { StdioServerTransport }] = await Promise.all([
        import("../../cairn.js"),
        import("../../server/createMcpServer.js"),
        import("@modelcontextprotocol/sdk/server/stdio.js"),
      ]);
      const cairn = new Cairn(global.home ? { home: global.home } : {});
      const server = createMcpServer(cairn, { cwd: resolve(options.cwd ?? process.cwd()) });
      const transport = new StdioServerTransport();
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await server.close();
        cairn.close();
      };
      // The client ends the session by closing our stdin (or by a signal); the store closes cleanly.
      process.stdin.once("end", () => void close());
      process.once("SIGINT", () => void close().then(() => process.exit(0)));
      process.once("SIGTERM", () => void close().then(() => process.exit(0)));
      await server.connect(transport);
      if (options.backgroundRun && cairn.config.memories.enabled) {
        const { startBackgroundRun } = await import("../../workers/startBackgroundRun.js");
        startBackgroundRun({ home: cairn.paths.home, env: process.env });
      }
    });
}
