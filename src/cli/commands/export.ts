import { resolve } from "node:path";
import type { Command } from "commander";
import { withCairn } from "../context.js";
import { nonEmpty } from "../flags.js";
import { invocation } from "../invocation.js";
import { inline, printLine } from "../output.js";
import { checkMarkdownFolder, writeMarkdownExport } from "../writeMarkdownExport.js";

export function registerExport(program: Command): void {
  program
    .command("export")
    .description(
      "write memories as JSON lines to stdout (move them with 'cairn import'), or a readable copy with --markdown",
    )
    .option(
      "--scope <scope>",
      "project (default: this folder's project and global), global, all, or a label",
      nonEmpty("--scope", "project, global, all or a label"),
    )
    .option("--all", "include forgotten and replaced memories, so what replaced what travels too")
    .option(
      "--markdown <dir>",
      "write one Markdown file per scope into this folder instead (a new or empty one, or one an export wrote)",
      nonEmpty("--markdown", "a folder"),
    )
    .action(async (options: { scope?: string; all?: boolean; markdown?: string }, command: Command) => {
      const { cwd, stdout } = invocation();
      const dir = options.markdown === undefined ? undefined : resolve(cwd, options.markdown);
      // A folder that is the user's is refused before anything is read or written.
      if (dir !== undefined) checkMarkdownFolder(dir);
      await withCairn(command, async (cairn) => {
        const exported = cairn.exportMemories({
          ...(options.scope ? { scope: options.scope } : {}),
          ...(options.all ? { all: true } : {}),
          cwd,
        });
        if (dir === undefined) {
          // The header line first: it names the format and its version, so an import can refuse what it cannot read.
          stdout(`${JSON.stringify(exported.header)}\n`);
          for (const memory of exported.memories) stdout(`${JSON.stringify(memory)}\n`);
          return;
        }
        const { memoryMarkdown } = await import("../../memory/memoryMarkdown.js");
        const files = memoryMarkdown(exported.memories);
        writeMarkdownExport(dir, files);
        printLine(`${exported.memories.length} memories in ${files.size} file(s) in ${inline(dir)}`);
      });
    });
}
