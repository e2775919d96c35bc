import type { Command } from "commander";
import { agentIds, isAgentId } from "../../agents/registry.js";
import type { ScanReport } from "../../collection/scanner.js";
import type { SourceAgent } from "../../sources/registry.js";
import { CairnError } from "../../util/errors.js";
import { withCairn } from "../context.js";
import { printJson, printLine } from "../output.js";
import { createProgress } from "../progress.js";

export function registerScan(program: Command): void {
  program
    .command("scan")
    .description("import the sessions your coding agents wrote (only what changed since the last scan)")
    .option(
      "--source <agent=path>",
      "read this agent's sessions from path instead of its default location (repeatable)",
      collectSource,
      {} as Partial<Record<SourceAgent, string[]>>,
    )
    .option("--json", "print the report as JSON")
    .action(async (options: { source: Partial<Record<SourceAgent, string[]>> }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const progress = createProgress(global);
        const overrides = Object.keys(options.source).length > 0 ? options.source : undefined;
        const report = await cairn.scan({ ...(overrides ? { overrides } : {}), onProgress: progress.report });
        progress.stop();
        if (global.json) printJson(report);
        else printScanSummary(report);
        const notStored = notStoredError(report, cairn.paths.database);
        if (notStored) throw notStored;
      });
    });
}

/** `agent=path`; checked against the agent names only, so parsing flags loads no adapter. */
function parseSourceFlag(value: string): { agent: SourceAgent; path: string } | undefined {
  const index = value.indexOf("=");
  const agent = value.slice(0, index).trim();
  const path = value.slice(index + 1).trim();
  if (index <= 0 || path.length === 0 || !isAgentId(agent)) return undefined;
  return { agent, path };
}

function collectSource(value: string, previous: Partial<Record<SourceAgent, string[]>>) {
  const parsed = parseSourceFlag(value);
  if (!parsed) {
    throw new CairnError(
      "bad_flag",
      `--source expects agent=path with agent one of ${agentIds.join(", ")} (got "${value}")`,
    );
  }
  return { ...previous, [parsed.agent]: [...(previous[parsed.agent] ?? []), parsed.path] };
}

/**
 * Files read but not stored (the store refused the write: full disk, damaged or read-only store) make
 * the scan fail, unlike damaged transcripts, which are reported and skipped: their sessions are not in
 * memory and nothing else will say so. One line: how many, and the first reason.
 */
export function notStoredError(report: ScanReport, databasePath: string): CairnError | undefined {
  // The scanner reports these as failed files whose problem starts with "not stored:" (fileImport.ts).
  const failed = report.files.filter((file) =>
    file.problems.some((problem) => problem.reason.startsWith("not stored")),
  );
  if (failed.length === 0) return undefined;
  const reason = failed[0]!.problems.find((problem) => problem.reason.startsWith("not stored"))!.reason;
  return new CairnError(
    "not_stored",
    `${failed.length} of ${report.files.length} files were not stored in ${databasePath} (${reason.replace(/^not stored: /, "")}); they are read again by the next scan once the store takes writes (see 'cairn doctor')`,
  );
}

export function printScanSummary(report: ScanReport): void {
  const { totals } = report;
  const byAgent = new Map<string, number>();
  for (const file of report.files) byAgent.set(file.agent, (byAgent.get(file.agent) ?? 0) + 1);
  const agents = [...byAgent].map(([agent, count]) => `${agent} ${count}`).join(", ");
  printLine(
    `scanned ${report.files.length} files (${agents || "no agent sessions found"}) in ${(report.ms / 1000).toFixed(1)}s`,
  );
  printLine(
    `  imported ${totals.imported}, updated ${totals.updated}, unchanged ${totals.unchanged}, failed ${totals.failed}; ` +
      `${totals.items} items written; ${report.invalidatedIdle} idle sessions marked for processing`,
  );
  if (report.missingRoots.length > 0)
    printLine(`  missing: ${report.missingRoots.map((root) => `${root.agent} ${root.path}`).join(", ")}`);
  const withProblems = report.files.filter((file) => file.problems.length > 0);
  if (withProblems.length > 0) {
    printLine(`  ${totals.problems} problems in ${withProblems.length} files (the rest of each file was imported):`);
    for (const file of withProblems.slice(0, 20)) {
      const first = file.problems[0]!;
      printLine(
        `    ${file.path}: ${file.problems.length} (first: ${first.line ? `line ${first.line}: ` : ""}${first.reason})`,
      );
    }
    if (withProblems.length > 20) printLine(`    ... and ${withProblems.length - 20} more files (see --json)`);
  }
}
