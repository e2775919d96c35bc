import { resolve } from "node:path";
import type { Command } from "commander";
import { withCairn } from "../context.js";
import { invocation } from "../invocation.js";
import { printJson, printLine } from "../output.js";

export function registerCheckpoint(program: Command): void {
  program
    .command("checkpoint")
    .description(
      "write a session checkpoint now (what the session asked, ran and changed), given back to the next session after a compaction or a clear",
    )
    .option("--session <id>", "the session's id (default: the newest stored session of this folder's project)")
    .option("--cwd <dir>", "the project's folder (default: the current directory)")
    .option("--json", "print JSON")
    .action(async (options: { session?: string; cwd?: string }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const outcome = await cairn.checkpoint({
          ...(options.session ? { session: options.session } : {}),
          // A relative --cwd is the caller's folder, and messages name it in full ("at ." says nothing).
          cwd: resolve(invocation().cwd, options.cwd ?? "."),
        });
        if (global.json) return printJson(outcome);
        if (!outcome.written) {
          printLine(`no checkpoint: ${outcome.reason}`);
          process.exitCode = 1;
          return;
        }
        const { record } = outcome;
        printLine(
          `checkpoint ${record.id} of session ${record.sessionKey}${outcome.merged ? " (merged into the one just written)" : ""}:`,
        );
        printLine(record.digest);
      });
    });
}
