import type { Command } from "commander";
import type { Phase2Report } from "../../pipeline/phase2/runPhase2.js";
import { toIso } from "../../util/clock.js";
import { withCairn } from "../context.js";
import { inline, printJson, printLine, quoted } from "../output.js";

export function registerConsolidate(program: Command): void {
  program
    .command("consolidate")
    .description("phase 2: consolidate stage-1 memories into MEMORY.md, memory_summary.md and skills/")
    .option("--force", "consolidate even when no input changed")
    .option("--json", "print the report as JSON")
    .action(async (options: { force?: boolean }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const report = await cairn.consolidate({ force: options.force ?? false });
        if (global.json) return printJson(report);
        printPhase2(report);
        if (report.outcome === "failed") process.exitCode = 1;
      });
    });
}

export function printPhase2(report: Phase2Report): void {
  const headline: Record<Phase2Report["outcome"], string> = {
    succeeded: `consolidated (${report.mode})`,
    clean: "nothing new to consolidate",
    busy: "another consolidation is running; not started",
    backing_off: "the last consolidation failed; it retries after its backoff (see 'cairn status')",
    failed: `consolidation failed: ${quoted(report.error ?? "")}`,
    no_input: "nothing to consolidate: no session has given memories yet (extraction runs first; see what it skipped)",
  };
  printLine(headline[report.outcome]);
  for (const workspace of report.workspaces) {
    if (workspace.outcome === "empty") continue;
    if (workspace.outcome === "removed") {
      printLine(
        `  ${inline(workspace.workspace)}: removed, nothing it was built from is left (${inline(workspace.dir)})`,
      );
      continue;
    }
    printLine(
      `  ${workspace.kind === "global" ? "global" : inline(workspace.workspace)}: ${workspace.outcome} ` +
        `(+${workspace.added} added, ${workspace.retained} retained, -${workspace.removed} removed) ${inline(workspace.dir)}`,
    );
    for (const warning of workspace.warnings) printLine(`    warning: ${quoted(warning)}`);
    for (const note of workspace.superseded ?? []) printLine(`    superseded: ${quoted(note)}`);
    for (const note of workspace.doubted ?? []) printLine(`    doubted: ${quoted(note)}`);
  }
  if (report.watermark !== null) printLine(`  watermark: ${toIso(report.watermark)}`);
}
