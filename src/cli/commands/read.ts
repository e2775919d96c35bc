import type { Command } from "commander";
import { withoutControls } from "../../text/controlCharacters.js";
import { withCairn } from "../context.js";
import { nonEmpty, wholeNumber } from "../flags.js";
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
    .option("--offset <n>", "start at this character (a file read in parts)", wholeNumber("--offset", 0))
    .option("--json", "print JSON")
    .action(async (url: string, options: { cwd: string; offset?: number }, command: Command) => {
      await withCairn(command, (cairn, global) => {
        const file = cairn.readMemory(url, options.cwd, options.offset);
        if (global.json) return printJson(file);
        const content = withoutControls(file.content);
        process.stdout.write(content.endsWith("\n") ? content : `${content}\n`);
      });
    });
}
