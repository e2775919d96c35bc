import type { Command } from "commander";
import type { HintsReport } from "../../pipeline/hints/generateHints.js";
import { confirm } from "../confirm.js";
import { withCairn } from "../context.js";
import { nonEmpty, wholeNumber } from "../flags.js";
import { printJson, printLine, quoted } from "../output.js";
import { printPhase2 } from "./consolidate.js";
import { registerMemoryCuration } from "./memoryCuration.js";
import { erasedBytesNote, registerMemoryPurge } from "./memoryPurge.js";

export function registerMemory(program: Command): void {
  const memory = program
    .command("memory")
    .description("view, review, edit, clear or rebuild the memory of this project (the /memory commands)");

  memory
    .command("view")
    .description("show the memory injection payload for the current directory")
    .option("--cwd <dir>", "directory of the session", nonEmpty("--cwd", "a directory"), process.cwd())
    .option("--json", "print JSON")
    .action(async (options: { cwd: string }, command: Command) => {
      await withCairn(command, (cairn, global) => {
        const injection = cairn.inject(options.cwd);
        if (global.json) return printJson(injection);
        if (injection.text) return printLine(injection.text);
        // Cairn.inject gives an empty block its reason.
        printLine(injection.reason?.message ?? "nothing to inject for this directory");
      });
    });

  memory
    .command("clear")
    .alias("reset")
    .description("delete all memory data and generated files of the current project (--all: everything)")
    .option("--cwd <dir>", "the project's directory", nonEmpty("--cwd", "a directory"), process.cwd())
    .option("--all", "every project and the global memory")
    .option("--yes", "do not ask for confirmation")
    .option("--json", "print JSON")
    .action(async (options: { cwd: string; all?: boolean; yes?: boolean }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const target = options.all
          ? "ALL memory (every project and the global memory)"
          : `the memory of the project of ${options.cwd}`;
        if (!options.yes) await confirm("memory clear", `Delete ${target}? Collected sessions stay. [y/N] `);
        const report = cairn.clearMemory({ cwd: options.cwd, all: options.all ?? false });
        if (global.json) return printJson(report);
        printLine(
          `cleared ${report.scope === "all" ? "all memory" : report.project}: ${report.stage1Outputs} session memories, ${report.memories} stored memories; ${report.sessions} sessions marked processed`,
        );
        for (const line of erasedBytesNote(report.bytes)) printLine(line);
      });
    });

  memory
    .command("enqueue")
    .alias("rebuild")
    .description("force consolidation at the next run (--now: run it immediately)")
    .option("--now", "consolidate now")
    .option("--json", "print JSON")
    .action(async (options: { now?: boolean }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        cairn.enqueueConsolidation();
        if (!options.now) {
          if (global.json) return printJson({ enqueued: true });
          return printLine("consolidation will run at the next 'cairn run' (or now: cairn memory enqueue --now)");
        }
        const report = await cairn.consolidate({ force: true });
        if (global.json) return printJson(report);
        printPhase2(report);
      });
    });

  memory
    .command("hints")
    .description(
      "generate prospective hints now: questions each stored memory answers (needs recall.hints.enabled and a model)",
    )
    .option("--limit <n>", "memories to index in this pass", wholeNumber("--limit", 1), 100)
    .option("--json", "print JSON")
    .action(async (options: { limit: number }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const report = await cairn.generateHints({ limit: options.limit });
        if (global.json) return printJson(report);
        printHints(report);
        if (report.failed > 0) process.exitCode = 1;
      });
    });

  registerMemoryCuration(memory);
  registerMemoryPurge(memory);
}

export function printHints(report: HintsReport): void {
  if (report.outcome === "skipped") {
    printLine(`hints skipped: ${report.reason}${report.pending > 0 ? ` (${report.pending} memories waiting)` : ""}`);
    return;
  }
  if (report.indexed + report.failed + report.gone + report.pending === 0) {
    printLine("hints: every memory is indexed; nothing to do");
    return;
  }
  printLine(
    `hints: ${report.indexed} memories indexed with ${report.hints} questions, ${report.failed} failed, ${report.pending} waiting`,
  );
  for (const e of report.errors.slice(0, 5))
    printLine(`  memory ${e.memoryId}: ${quoted(e.error.split("\n")[0] ?? "")}`);
}
