import type { Command } from "commander";
import type { DryRunEntry, Phase1Report } from "../../pipeline/phase1/runPhase1.js";
import { describeStructuralCost } from "../../pipeline/structural/describeStructural.js";
import { RETRY_DEAD_COMMAND } from "../../store/queue/describeDeadJobs.js";
import { withCairn } from "../context.js";
import { inline, printJson, printLine, printTable, quoted, shorten } from "../output.js";
import { createProgress } from "../progress.js";
import { tellTooOld } from "../tooOldNotice.js";

export function registerExtract(program: Command): void {
  program
    .command("extract")
    .description("phase 1: turn eligible sessions into stage-1 memories (model when configured, else offline)")
    .option(
      "--dry-run",
      "show which sessions would be sent, how many tokens and structural classification calls, send nothing",
    )
    .option("--json", "print the report as JSON")
    .action(async (options: { dryRun?: boolean }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const progress = createProgress(global);
        const report = await cairn.extract({ dryRun: options.dryRun ?? false, onProgress: progress.report });
        progress.stop();
        // The dry run also says what classifying the extracted facts' entities will cost.
        const structural = options.dryRun ? await cairn.structuralCost() : undefined;
        if (global.json) return printJson(structural ? { ...report, structural } : report);
        printPhase1(report, "cairn extract", tellTooOld(cairn.storage.meta, report, Date.now()));
        if (structural) printLine(describeStructuralCost(structural));
      });
    });
}

/** A session too long for one call: what each of its calls holds. */
function printWindows(entry: DryRunEntry): void {
  printLine(
    `${shorten(entry.sessionId, 40)}: ${entry.windows.length} calls, each with the memory of the ones before it`,
  );
  for (const [index, window] of entry.windows.entries()) {
    const left = window.omitted ? `, ${window.omitted} left out` : "";
    printLine(
      `  ${index + 1}. items ${window.itemFrom ?? "-"} to ${window.itemTo ?? "-"}: ${window.entries} sent${left}, ${window.tokens} tokens`,
    );
  }
}

/**
 * `again` is the command that takes the sessions this run left waiting (cairn extract or cairn run);
 * `tooOldSetting`: say which memories.maxRolloutAgeDays includes the sessions skipped as too old.
 */
export function printPhase1(report: Phase1Report, again = "cairn extract", tooOldSetting = false): void {
  if (report.dryRun) {
    printLine(`dry run with ${report.generator}: ${report.dryRun.length} session(s) would be extracted`);
    if (report.dryRun.length > 0) {
      printTable(
        ["SESSION", "AGENT", "ITEMS", "TOKENS", "CWD"],
        report.dryRun.map((entry) => [
          shorten(entry.sessionId, 40),
          entry.agent,
          String(entry.items),
          report.generator === "offline"
            ? "0 (offline)"
            : `${entry.tokens}${entry.omitted ? ` (-${entry.omitted} items)` : ""}`,
          shorten(entry.cwd ?? "-", 50),
        ]),
      );
      const total = report.dryRun.reduce((sum, entry) => sum + entry.tokens, 0);
      printLine(`total input tokens: ${total}`);
      for (const entry of report.dryRun.filter((entry) => entry.windows.length > 1)) printWindows(entry);
      if (report.minFactConfidence !== undefined)
        printLine(
          `facts the model rates under ${report.minFactConfidence} (pipeline.minFactConfidenceForWrite) are not stored as memories; consolidation still sees them`,
        );
    }
    printPending(report, again, tooOldSetting);
    return;
  }
  const count = (outcome: string) => report.jobs.filter((job) => job.outcome === outcome).length;
  const tokens = report.jobs.reduce((sum, job) => sum + (job.tokensIn ?? 0) + (job.tokensOut ?? 0), 0);
  printLine(
    `extracted with ${report.generator}: ${count("succeeded")} memories, ${count("succeeded_no_output")} with nothing worth keeping, ` +
      `${count("unchanged")} unchanged, ${count("failed") + count("dead")} failed; ${tokens} tokens`,
  );
  for (const job of report.jobs.filter((job) => job.error))
    printLine(`  ${inline(job.sessionId)}: ${job.outcome}: ${quoted(job.error ?? "")}`);
  if (report.budgetExhausted) printLine("  the daily token budget is spent: remaining sessions wait for tomorrow");
  if (report.facts?.skipped) {
    printLine(
      `  facts not stored (${report.facts.skipped}): the extracted memories keep them pending until it is true`,
    );
  }
  if (report.facts?.belowThreshold) {
    printLine(
      `  ${report.facts.belowThreshold} fact(s) under pipeline.minFactConfidenceForWrite not stored as memories (consolidation still sees them)`,
    );
  }
  for (const failure of report.facts?.errors ?? []) {
    printLine(`  facts of ${inline(failure.sessionId)} not stored (retried next run): ${quoted(failure.error)}`);
  }
  printPending(report, again, tooOldSetting);
}

function printPending(report: Phase1Report, again: string, tooOldSetting: boolean): void {
  const { pending } = report;
  if (report.waiting > 0) {
    printLine(
      `  ${report.waiting} more session(s) waiting: run '${again}' again, or raise memories.maxRolloutsPerStartup to take more per run`,
    );
  }
  const waiting = [
    pending.tooRecent
      ? `${pending.tooRecent} still active (idle less than memories.minRolloutIdleHours; taken once idle)`
      : "",
    pending.tooOld
      ? `${pending.tooOld} older than memories.maxRolloutAgeDays${tooOldSetting && report.includeTooOld ? ` (to include them: cairn config set memories.maxRolloutAgeDays ${report.includeTooOld})` : ""}`
      : "",
    pending.kindExcluded ? `${pending.kindExcluded} of excluded kinds (subagent/exec/internal)` : "",
    pending.backingOff ? `${pending.backingOff} retrying later` : "",
    pending.dead
      ? `${pending.dead} failed permanently ('cairn status' says why; '${RETRY_DEAD_COMMAND}' retries them)`
      : "",
  ].filter(Boolean);
  if (waiting.length > 0) printLine(`  skipped: ${waiting.join(", ")}`);
}
