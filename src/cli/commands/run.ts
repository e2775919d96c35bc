import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import type { ExclusionErasure } from "../../memory/eraseExcludedSessions.js";
import type { ReviseJobsReport } from "../../memory/lifecycle/runReviseJobs.js";
import type { MaintenanceReport } from "../../memory/runMaintenanceJobs.js";
import { describeStructural } from "../../pipeline/structural/describeStructural.js";
import { describeDeadJobs } from "../../store/queue/describeDeadJobs.js";
import { describeForeignLeases } from "../../store/queue/describeForeignLeases.js";
import { explainStoreError } from "../../store/storeFault.js";
import { cairnCommandWord, cliEntry } from "../../util/cairnInvocation.js";
import type { GlobalOptions } from "../context.js";
import { demoConfig, demoHome, demoSources } from "../demo.js";
import { printJson, printLine, quoted } from "../output.js";
import { createProgress } from "../progress.js";
import { tellTooOld } from "../tooOldNotice.js";
import { printPhase2 } from "./consolidate.js";
import { printPhase1 } from "./extract.js";
import { printHints } from "./memory.js";
import { erasedBytesNote } from "./memoryPurge.js";
import { notStoredError } from "./scan.js";

export function registerRun(program: Command): void {
  program
    .command("run")
    .description("the main job: scan agent sessions, extract memories (phase 1), consolidate them (phase 2)")
    .option("--demo", "run on example sessions shipped with cairn, offline, in a temporary memory root (or --home)")
    .option("--force", "consolidate even when nothing changed")
    .option("--retry-dead", "first queue again the jobs that failed permanently (dead), their attempts reset")
    .option("--json", "print the report as JSON")
    .action(async (options: { demo?: boolean; force?: boolean; retryDead?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const home = options.demo ? demoHome(global.home) : global.home;
      const { Cairn } = await import("../../cairn.js");
      const cairn = new Cairn({ ...(home ? { home } : {}), ...(options.demo ? { config: demoConfig } : {}) });
      const { releaseOnSignal } = await import("../../store/queue/releaseOnSignal.js");
      const stopHandingBack = releaseOnSignal(() => cairn.releaseLeases());
      try {
        const progress = createProgress(global);
        // Before the scan, so this run's phase 1 and later steps already take them.
        const retried = options.retryDead ? cairn.retryDead() : undefined;
        const { scan, extract, revise, consolidate, hints, structural, maintenance, workers } = await cairn
          .run({
            scan: options.demo ? { overrides: demoSources(), only: ["codex", "claude-code", "pi"] } : {},
            onProgress: progress.report,
            force: options.force ?? false,
          })
          .finally(() => progress.stop());
        const leases = cairn.storage.jobs.foreignLeases("phase1");
        const report = {
          home: cairn.paths.home,
          memories: cairn.paths.memories,
          scan,
          extract,
          revise,
          consolidate,
          hints,
          structural,
          maintenance,
          workers,
          leases,
          ...(retried ? { retried } : {}),
        };
        const notStored = notStoredError(scan, cairn.paths.database);
        if (global.json) {
          printJson(report);
          if (notStored) throw notStored;
          return;
        }
        const { totals } = scan;
        if (retried) {
          const dead = describeDeadJobs(retried);
          printLine(
            dead ? `retry-dead: ${dead} that had failed permanently queued again` : "retry-dead: no dead jobs to retry",
          );
        }
        printLine(
          `sessions: ${scan.files.length} files scanned (${totals.imported} new, ${totals.updated} updated), ${cairn.storage.sessions.count()} sessions in the store`,
        );
        for (const line of describeMaintenance(maintenance)) printLine(line);
        printPhase1(extract, "cairn run", tellTooOld(cairn.storage.meta, extract, Date.now()));
        const revised = describeRevise(revise);
        if (revised) printLine(revised);
        const waiting = describeForeignLeases(leases);
        if (waiting) printLine(`  ${waiting}`);
        printPhase2(consolidate);
        if (cairn.config.recall.hints.enabled) printHints(hints);
        const structuralLine = describeStructural(structural);
        if (structuralLine) printLine(structuralLine);
        for (const [name, cycle] of Object.entries(workers)) {
          if (cycle.processed > 0 || cycle.failed > 0) {
            printLine(`${name}: ${cycle.processed} done${cycle.failed > 0 ? `, ${cycle.failed} failed` : ""}`);
          }
        }
        printLine("");
        printLine(`memory is in ${cairn.paths.memories}`);
        const starts = [
          join(cairn.paths.memories, "global", "memory_summary.md"),
          join(cairn.paths.memories, "projects"),
        ].filter((path) => existsSync(path));
        if (starts.length > 0)
          printLine(
            `  start with: ${starts.map((path) => (path.endsWith(".md") ? path : `the MEMORY.md of each project under ${path}`)).join(" and ")}`,
          );
        if (options.demo)
          printLine(
            `  (demo memory root: ${cairn.paths.home}; try: CAIRN_HOME=${cairn.paths.home} ${cairnCommandWord(cliEntry())} status)`,
          );
        if (consolidate.outcome === "failed") process.exitCode = 1;
        if (notStored) throw notStored;
      } catch (error) {
        throw explainStoreError(error, cairn.paths.database);
      } finally {
        stopHandingBack();
        cairn.close();
      }
    });
}

/** The store upkeep that finished or failed in this run (upgrades queue it; most runs have none). */
function describeMaintenance(report: MaintenanceReport): string[] {
  return [
    ...(report.done.length > 0
      ? [`store upkeep: ${report.done.join(", ")} done (cairn memory history <id> says what changed)`]
      : []),
    ...report.warnings.map((warning) => `store upkeep: ${quoted(warning)}`),
    ...(report.excluded ? [describeExclusion(report.excluded), ...erasedBytesNote(report.excluded.bytes)] : []),
  ];
}

function describeExclusion(erased: ExclusionErasure): string {
  const restored =
    erased.restored > 0
      ? `; ${erased.restored} older ${erased.restored === 1 ? "memory" : "memories"} current again`
      : "";
  return `memories.exclude: erased what ${erased.sessions} excluded ${erased.sessions === 1 ? "session" : "sessions"} taught (${erased.memories} ${erased.memories === 1 ? "memory" : "memories"}, ${erased.stage1Outputs} extracted ${erased.stage1Outputs === 1 ? "summary" : "summaries"})${restored}`;
}

/** What the revise step did to the memories extraction wrote, when it did anything. */
function describeRevise(report: ReviseJobsReport): string | undefined {
  const parts = [
    ...(report.superseded.length > 0
      ? [`${report.superseded.length} older ${report.superseded.length === 1 ? "memory" : "memories"} superseded`]
      : []),
    ...(report.flagged.length > 0
      ? [
          `${report.flagged.length} ${report.flagged.length === 1 ? "pair" : "pairs"} flagged for review (cairn memory review --all)`,
        ]
      : []),
    ...report.warnings.map(quoted),
  ];
  return parts.length > 0 ? `memories: ${parts.join(", ")}` : undefined;
}
