import type { Command } from "commander";
import { withoutControls } from "../../text/controlCharacters.js";
import { withCairn } from "../context.js";
import { nonEmpty } from "../flags.js";
import { printJson } from "../output.js";

export function registerRead(program: Command): void {
  program
    .command("read <url>")
    .description(
      "print a memory file: memory://root (summary), memory://root/MEMORY.md, memory://root/skills/<name>/SKILL.md, memory://global/...",
    )
    .option(
      "--cwd <dir>",
      "resolve memory://root for the project of this directory",
      nonEmpty("--cwd", "a directory"),
      process.cwd(),
    )
    .option("--json", "print JSON")
    .action(async (url: string, options: { cwd: string }, command: Command) => {
      await withCairn(command, (cairn, global) => {
        const file = cairn.readMemory(url, options.cwd);
        if (global.json) return printJson(file);
        const content = withoutControls(file.content);
        process.stdout.write(content.endsWith("\n") ? content : `${content}\n`);
      });
    });
}
