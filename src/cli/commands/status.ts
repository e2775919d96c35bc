import type { Command } from "commander";
import { awaitingConfirmation } from "../../memory/curateMemory.js";
import type { PipelineStatus } from "../../pipeline/status.js";
import { factsWaiting } from "../../pipeline/structural/describeStructural.js";
import { describeDeadJobs } from "../../store/queue/describeDeadJobs.js";
import { describeForeignLeases } from "../../store/queue/describeForeignLeases.js";
import { toIso } from "../../util/clock.js";
import type { WorkerStats } from "../../workers/backgroundWorker.js";
import { withCairn } from "../context.js";
import { printJson, printLine } from "../output.js";

export function registerStatus(program: Command): void {
  program
    .command("status")
    .description("what the pipeline holds and is doing: sessions, pending work, jobs, phase-2 watermark")
    .option("--json", "print JSON")
    .action(async (_options: unknown, command: Command) => {
      await withCairn(command, (cairn, global) => {
        const status = cairn.status();
        if (global.json) return printJson(status);
        printLine(
          `memory root  ${status.home}${status.memoriesEnabled ? "" : " (agent hooks disabled: memories.enabled is false)"}`,
        );
        printLine(`sessions     ${status.sessions} (${status.items} items), stage-1 memories ${status.stage1Outputs}`);
        const below = status.factsBelowThreshold;
        if (below.count > 0)
          printLine(
            `             ${below.count} extracted fact(s) under ${below.threshold} (pipeline.minFactConfidenceForWrite): not stored as memories, seen by consolidation only`,
          );
        printLine(`memories     ${describeMemories(status.memories)}`);
        const open = status.reviews.open;
        printLine(
          `review       ${open === 0 ? "nothing to decide" : `${open} open flag${open === 1 ? "" : "s"}: cairn memory review --all`}`,
        );
        // Not injected until the user confirms them, so the user has to hear of them somewhere.
        const unconfirmed = awaitingConfirmation(cairn.storage, 100).length;
        if (unconfirmed > 0)
          printLine(
            `confirm      ${unconfirmed} saved by an agent for every project, not shown to sessions: cairn memory confirm`,
          );
        const p = status.pending;
        printLine(
          `pending      ${p.eligible} ready, ${p.tooRecent} too recent, ${p.tooOld} too old, ${p.kindExcluded} excluded kinds, ${p.backingOff} backing off, ${p.dead} dead`,
        );
        for (const [kind, counts] of Object.entries(status.jobs)) {
          printLine(
            `jobs ${kind.padEnd(7)} ${Object.entries(counts)
              .map(([state, n]) => `${state} ${n}`)
              .join(", ")}`,
          );
        }
        const waiting = describeForeignLeases(status.leases);
        if (waiting) printLine(`leases       ${waiting}`);
        const dead = describeDeadJobs(status.dead.byKind);
        if (dead) printLine(`dead         ${dead} failed permanently; '${status.dead.retry}' runs them again`);
        for (const job of status.failedJobs)
          printLine(`  ${job.status} ${job.kind} ${job.key} (attempt ${job.attempts}): ${job.error}`);
        const phase2 = status.phase2;
        printLine(
          `phase 2      ${phase2.dirty ? "dirty (new stage-1 memories since the last consolidation)" : "clean"}; watermark ${toIso(phase2.watermark) ?? "none"}`,
        );
        printLine(`structural   ${describeStructural(status.structural)}`);
        for (const [name, stats] of Object.entries(status.workers)) printLine(describeWorker(name, stats));
      });
    });
}

/** One worker's line: whether it ran, what it did in total, what waits, the last error or skip. */
function describeWorker(name: string, w: WorkerStats): string {
  const label = `${name} worker`.padEnd(12);
  if (w.lastCycleAt === null) return `${label} never ran in this store`;
  const parts = [
    `${w.running ? "running" : `last cycle ${toIso(w.lastCycleAt)}`}`,
    `${w.processed} done, ${w.failed} failed, ${w.skippedCycles} skipped cycles`,
    ...(w.queueDepth > 0 ? [`${w.queueDepth} waiting`] : []),
    ...(w.lastError ? [`last error: ${w.lastError}`] : []),
  ];
  return `${label} ${parts.join("; ")}`;
}

/** Live memories and their vectors: after an embedding change, how many still wait for the new one. */
function describeMemories(m: PipelineStatus["memories"]): string {
  if (m.embeddingModel === null) return `${m.live} live; embedding unavailable: ${m.embeddingProblem}`;
  const live = `${m.live} live; embedding ${m.embeddingModel}`;
  if (!m.waitingForVector) return live;
  return `${live}, ${m.waitingForVector} still without its vector (cairn run or cairn serve fills them in; recall finds them by keyword meanwhile)`;
}

/** Aspects, classified and waiting facts, and why the last pass did nothing when it did nothing. */
function describeStructural(s: PipelineStatus["structural"]): string {
  const counts = `${s.aspects} aspects, ${s.classified} classified, ${factsWaiting(s.waiting)}`;
  if (!s.enabled) return `${counts} (off: pipeline.structural.enabled is false)`;
  const last = s.lastRun;
  if (!last) return `${counts}; not run yet`;
  const when = toIso(last.at);
  if (last.outcome === "skipped") return `${counts}; last pass ${when} skipped: ${last.reason}`;
  return `${counts}; last pass ${when} classified ${last.classified}`;
}
