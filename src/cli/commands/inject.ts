import { resolve } from "node:path";
import type { Command } from "commander";
import { cairnHome } from "../../config/paths.js";
import type { GlobalOptions } from "../context.js";
import { printJson } from "../output.js";

export function registerInject(program: Command): void {
  program
    .command("inject")
    .description("print the memory block a new agent session in DIR starts with (nothing when there is no memory)")
    .option("--cwd <dir>", "the session's working directory", process.cwd())
    .option("--format <format>", "text or json", "text")
    .option("--json", "same as --format json; says per summary how much was kept and whether it was cut")
    .option(
      "--agent <agent>",
      "fit the block to this agent's budget: claude-code (its 10,000-character hook output cap), codex, pi, gemini, opencode, generic (the token budget)",
      "generic",
    )
    .action(async (options: { cwd: string; format: string; agent: string }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      // Loaded here, not at the top: this runs on agent start and needs only the config and two files.
      const { injectFor } = await import("../../read/injectFor.js");
      const injection = await injectFor({
        home: global.home ? resolve(global.home) : cairnHome(process.env),
        cwd: resolve(options.cwd),
        env: process.env,
        agent: options.agent,
      });
      if (global.json || options.format === "json") return printJson(injection);
      if (injection.text) process.stdout.write(`${injection.text}\n`);
    });
}
