import type { Command } from "commander";
import { withCairn } from "../context.js";
import { printJson } from "../output.js";

export function registerInject(program: Command): void {
  program
    .command("inject")
    .description("print the memory block a new agent session in DIR starts with (nothing when there is no memory)")
    .option("--cwd <dir>", "the session's working directory", process.cwd())
    .option("--format <format>", "text or json", "text")
    .option("--json", "same as --format json")
    .action(async (options: { cwd: string; format: string }, command: Command) => {
      await withCairn(command, (cairn, global) => {
        const injection = cairn.inject(options.cwd);
        if (global.json || options.format === "json") return printJson(injection);
        if (injection.text) process.stdout.write(`${injection.text}\n`);
      });
    });
}
