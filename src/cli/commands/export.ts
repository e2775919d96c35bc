import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { withCairn } from "../context.js";
import { nonEmpty } from "../flags.js";
import { invocation } from "../invocation.js";
import { inline, printLine } from "../output.js";

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
      "write one Markdown file per scope into this folder instead",
      nonEmpty("--markdown", "a folder"),
    )
    .action(async (options: { scope?: string; all?: boolean; markdown?: string }, command: Command) => {
      const { cwd, stdout } = invocation();
      await withCairn(command, async (cairn) => {
        const exported = cairn.exportMemories({
          ...(options.scope ? { scope: options.scope } : {}),
          ...(options.all ? { all: true } : {}),
          cwd,
        });
        if (options.markdown === undefined) {
          // The header line first: it names the format and its version, so an import can refuse what it cannot read.
          stdout(`${JSON.stringify(exported.header)}\n`);
          for (const memory of exported.memories) stdout(`${JSON.stringify(memory)}\n`);
          return;
        }
        const { memoryMarkdown } = await import("../../memory/memoryMarkdown.js");
        const dir = resolve(cwd, options.markdown);
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const files = memoryMarkdown(exported.memories);
        for (const [name, text] of files) writeFileSync(join(dir, name), text, { mode: 0o600 });
        printLine(`${exported.memories.length} memories in ${files.size} file(s) in ${inline(dir)}`);
      });
    });
}
