import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { CairnConfig } from "../../config/schema.js";
import { RETRY_DEAD_COMMAND } from "../../store/queue/describeDeadJobs.js";
import { PHASE2_KEY, PHASE2_KIND } from "../../store/queue/jobKinds.js";
import { startLeaseHeartbeat } from "../../store/queue/leaseHeartbeat.js";
import type { Lease } from "../../store/queue/types.js";
import type { Storage } from "../../store/storage.js";
import { rethrowStoreFault } from "../../store/storeFault.js";
import { withWriteTx } from "../../store/tx.js";
import { writeFileAtomic } from "../../util/atomicWrite.js";
import { type Clock, DAY_MS } from "../../util/clock.js";
import { errorMessage } from "../../util/errors.js";
import { writeProjectIndex } from "../../workspace/projectIndex.js";
import {
  StaleMatcher,
  type StaleStatement,
  staleAsSeenFrom,
  stripDoubtMarks,
} from "../../workspace/staleStatements.js";
import { SUPERSEDED_FILE_LIMIT, writeSupersededFile } from "../../workspace/supersededFile.js";
import { VersionedDir } from "../../workspace/versionedDir.js";
import {
  GLOBAL_WORKSPACE,
  globalWorkspace,
  projectName,
  projectWorkspace,
  type WorkspaceRef,
} from "../../workspace/workspacePaths.js";
import type { Stage1Output } from "../phase1/types.js";
import { renderStaleFile } from "./artifacts.js";
import { globalInputs, guardedInput, guardedText } from "./consolidationInputs.js";
import { type Consolidator, currentInputs } from "./consolidators/types.js";
import { dropAgentWording } from "./dropAgentWording.js";
import { selectionDiff } from "./selectionDiff.js";
import { staleFreeDiff } from "./staleInputs.js";
import { doubtedStatements, guardStatements, staleScopes, staleStatements } from "./staleKnowledge.js";
import { pruneToCurrent, renderDiffFile, syncInputs } from "./syncInputs.js";
import {
  HANDBOOK,
  markDoubts,
  reviseHandbook,
  skillBody,
  stripHandbookDoubts,
  verifyCurrent,
} from "./verifyCurrent.js";
import { readIfExists, scrubSecrets, validateWorkspace, writeConsolidated } from "./workspaceFiles.js";

export interface WorkspaceReport {
  workspace: string;
  kind: "global" | "project";
  dir: string;
  added: number;
  retained: number;
  removed: number;
  /** `removed`: a project workspace none of whose inputs is left, deleted. */
  outcome: "consolidated" | "unchanged" | "empty" | "removed" | "failed";
  filesWritten: string[];
  warnings: string[];
  /** What was kept from presenting a superseded or withdrawn memory as current, one line each. */
  superseded: string[];
  /** Sentences marked as stating a memory an open review flag doubts, one line each. */
  doubted: string[];
  error: string | null;
}

export interface Phase2Report {
  outcome: "succeeded" | "clean" | "busy" | "backing_off" | "failed" | "no_input";
  mode: Consolidator["mode"];
  previousWatermark: number | null;
  watermark: number | null;
  workspaces: WorkspaceReport[];
  tokensIn: number;
  tokensOut: number;
  error: string | null;
}

export interface Phase2Deps {
  storage: Storage;
  config: CairnConfig;
  clock: Clock;
  memoriesRoot: string;
  consolidator: Consolidator;
}

/**
 * Phase 2: one global consolidation at a time (a leased job with a heartbeat). For each workspace it
 * selects inputs, syncs them into a staging copy, consolidates, validates, and publishes atomically;
 * then success, the selection marks and the watermark are recorded together.
 */
export async function runPhase2(deps: Phase2Deps, options: { force?: boolean } = {}): Promise<Phase2Report> {
  const { storage, config } = deps;
  const state = storage.phase2;
  const previousWatermark = state.watermark();
  const inputWatermark = newestInput(storage);
  const leaseMs = config.queue.phase2LeaseSeconds * 1000;
  // Workspaces an erase touched are built from nothing; a pending rebuild is a reason to run.
  const rebuild = new Set(state.rebuildRequested());
  const force = (options.force ?? false) || state.forceNextRequested() || rebuild.size > 0;
  // A memory superseded, forgotten or restored, or a review flag added or decided, since the last
  // success is a reason to run without new input.
  const lifecycle = { marks: lifecycleMarks(storage), before: state.tombstoneMarks() };
  const lifecycleChanged = !sameMarks(lifecycle.marks, lifecycle.before);
  if (lifecycleChanged) writeSupersededFile(deps.memoriesRoot, guardStatements(storage, SUPERSEDED_FILE_LIMIT));
  const inputsAt = deps.clock();
  storage.jobs.enqueue({
    kind: PHASE2_KIND,
    key: PHASE2_KEY,
    watermark: inputWatermark,
    // The watermark is the newest session time (seed 000); a session older than it that was extracted
    // since the last success (another agent's history imported, a session read again) is new input too.
    force: force || lifecycleChanged || extractedSinceLastRun(storage),
  });
  const report: Phase2Report = {
    outcome: "succeeded",
    mode: deps.consolidator.mode,
    previousWatermark,
    watermark: previousWatermark,
    workspaces: [],
    tokensIn: 0,
    tokensOut: 0,
    error: null,
  };
  const [lease] = storage.jobs.claim({ kind: PHASE2_KIND, limit: 1, runningCap: 1, leaseMs });
  if (!lease) {
    const job = storage.jobs.get(PHASE2_KIND, PHASE2_KEY);
    report.outcome =
      job?.status === "running"
        ? "busy"
        : job?.status === "failed"
          ? "backing_off"
          : job?.status === "dead"
            ? "failed"
            : "clean";
    if (job?.status === "dead") {
      report.error = `phase 2 gave up after ${job.attempts} attempts (${job.lastError ?? "unknown error"}); new input, 'cairn memory enqueue --now' or '${RETRY_DEAD_COMMAND}' retries it`;
    }
    return report;
  }
  storage.jobs.start(lease);
  const controller = new AbortController();
  const heartbeat = () => storage.jobs.heartbeat(lease, leaseMs);
  const renewal = startLeaseHeartbeat({
    jobs: storage.jobs,
    leases: [lease],
    leaseMs,
    onLost: () => controller.abort(),
  });
  try {
    return await consolidateAll(
      deps,
      lease,
      report,
      { signal: controller.signal, heartbeat },
      { force, lifecycle, inputsAt, rebuild },
    );
  } catch (error) {
    rethrowStoreFault(error);
    report.outcome = "failed";
    report.error = errorMessage(error);
    storage.jobs.fail(lease, report.error);
    return report;
  } finally {
    renewal.stop();
  }
}

async function consolidateAll(
  deps: Phase2Deps,
  lease: Lease,
  report: Phase2Report,
  context: { signal: AbortSignal; heartbeat: () => boolean },
  run: RunTriggers,
): Promise<Phase2Report> {
  const { storage, clock } = deps;
  if (storage.stage1.count() === 0 && workspacesWithSelection(storage).length === 0) {
    storage.jobs.succeed(lease, { result: { outcome: "no_input" } });
    storage.phase2.setTombstoneMarks(run.lifecycle.marks);
    // Nothing extracted and nothing selected: no workspace has an input left to be rebuilt from.
    for (const key of run.rebuild) storage.phase2.clearRebuild(key);
    report.outcome = "no_input";
    return report;
  }
  let newest = lease.inputWatermark;
  for (const workspace of workspacesToConsolidate(deps)) {
    const result = await consolidateWorkspace(deps, workspace, context, run);
    report.workspaces.push(result.report);
    report.tokensIn += result.tokensIn;
    report.tokensOut += result.tokensOut;
    for (const output of result.loaded) newest = Math.max(newest, output.sourceUpdatedAt);
  }
  const failed = report.workspaces.filter((workspace) => workspace.outcome === "failed");
  if (failed.length > 0) {
    report.outcome = "failed";
    report.error = failed.map((workspace) => `${workspace.workspace}: ${workspace.error}`).join("; ");
    storage.jobs.fail(lease, report.error);
    return report;
  }
  const cwds = storage.sessions.cwdsByProject();
  writeProjectIndex(
    deps.memoriesRoot,
    report.workspaces
      .filter(
        (workspace) => workspace.kind === "project" && workspace.outcome !== "empty" && workspace.outcome !== "removed",
      )
      .map((workspace) => ({
        key: workspace.workspace,
        name: projectName(workspace.workspace),
        cwds: cwds.get(workspace.workspace) ?? [],
      })),
  );
  const watermark = Math.max(report.previousWatermark ?? 0, newest);
  withWriteTx(storage.db, () => {
    if (!storage.jobs.succeed(lease, { result: { watermark } })) throw new Error("phase-2 lease lost before success");
    const state = storage.phase2;
    state.setWatermark(watermark);
    state.setTombstoneMarks(run.lifecycle.marks);
    state.clearForceNext();
    // A workspace marked for a rebuild that this run did not visit has no input and no selection left:
    // nothing of it is published, so there is nothing to rebuild.
    const visited = new Set(report.workspaces.map((workspace) => workspace.workspace));
    for (const key of run.rebuild) if (!visited.has(key)) state.clearRebuild(key);
    state.recordLastRun({ at: clock(), inputsAt: run.inputsAt, outcome: "succeeded", watermark, mode: report.mode });
  });
  report.watermark = watermark;
  return report;
}

function workspacesToConsolidate(deps: Phase2Deps): WorkspaceRef[] {
  const keys = new Set<string>();
  for (const key of deps.storage.stage1.projectKeys()) if (key) keys.add(key);
  for (const key of workspacesWithSelection(deps.storage)) if (key !== "global") keys.add(key);
  return [
    ...[...keys].sort().map((key) => projectWorkspace(deps.memoriesRoot, key)),
    globalWorkspace(deps.memoriesRoot),
  ];
}

function workspacesWithSelection(storage: Storage): string[] {
  return storage.stage1.selectionWorkspaces();
}

/** Why workspaces are consolidated without new input: a forced run, or memories that stopped being true. */
interface RunTriggers {
  force: boolean;
  /** The memories' tombstone marks now and at the last success (per scope). */
  lifecycle: { marks: Record<string, string>; before: Record<string, string> };
  /** When this run took its inputs (recorded on success). */
  inputsAt: number;
  /** Workspaces to build from nothing: an erase left their published files and selection untrustworthy. */
  rebuild: ReadonlySet<string>;
}

/**
 * Per scope, the memories' tombstone mark, joined by the review flags' mark where that scope has
 * flags (a store without flags keeps the marks it always had, so an upgrade reruns nothing).
 */
function lifecycleMarks(storage: Storage): Record<string, string> {
  const marks = { ...storage.memories.tombstoneMarks() };
  for (const [scope, mark] of Object.entries(storage.reviews.marks())) marks[scope] = `${marks[scope] ?? ""}|${mark}`;
  return marks;
}

function sameMarks(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

async function consolidateWorkspace(
  deps: Phase2Deps,
  workspace: WorkspaceRef,
  context: { signal: AbortSignal; heartbeat: () => boolean },
  run: RunTriggers,
): Promise<{ report: WorkspaceReport; loaded: Stage1Output[]; tokensIn: number; tokensOut: number }> {
  const { force } = run;
  const { storage, config, clock } = deps;
  const now = clock();
  const candidates = storage.stage1.selectForPhase2({
    projectKey: workspace.kind === "global" ? "*" : workspace.key,
    since: now - config.memories.maxUnusedDays * DAY_MS,
    limit: config.memories.phase2MaxInputs,
  });
  // From scratch, nothing consolidated before counts: every input is new and nothing is "removed" (a
  // removed input's text would be shown to the consolidator again).
  const fromScratch = run.rebuild.has(workspace.key);
  const previous = fromScratch ? [] : storage.stage1.previousSelection(workspace.key);
  const stillStored = storage.stage1.listBySessions(previous.map((entry) => entry.sessionId));
  // The global workspace is injected into every project: it is only ever shown user-level preferences.
  const current = workspace.kind === "global" ? globalInputs(candidates) : candidates.map(guardedInput);
  const selected = selectionDiff(
    current,
    previous,
    workspace.kind === "global"
      ? globalInputs(stillStored, { among: [...candidates, ...stillStored], keepEmpty: true })
      : stillStored.map(guardedInput),
  );
  const stale = staleStatements(storage, staleScopes(workspace));
  const matcher = new StaleMatcher(staleAsSeenFrom(stale, workspace.key));
  // Doubts are marked in the published handbook only, after the consolidator: inputs, skills and what a
  // model is told stay as they are until a person decides.
  const doubts = new StaleMatcher(staleAsSeenFrom(doubtedStatements(storage, staleScopes(workspace)), workspace.key));
  const { diff, hits } = staleFreeDiff(selected, matcher);
  const report: WorkspaceReport = {
    workspace: workspace.key,
    kind: workspace.kind,
    dir: workspace.dir,
    added: diff.added.length,
    retained: diff.retained.length,
    removed: diff.removed.length,
    outcome: "consolidated",
    filesWritten: [],
    warnings: [],
    superseded: [],
    doubted: [],
    error: null,
  };
  const versioned = new VersionedDir(workspace.dir);
  // A rebuilt workspace's old files are neither shown to the consolidator nor copied into its staging.
  const live = fromScratch ? undefined : versioned.current();
  const liveValid = live !== undefined && validateWorkspace(live).length === 0;
  const empty = { report, loaded: candidates, tokensIn: 0, tokensOut: 0 };
  // Nothing to build from and nothing published to replace.
  const nothingToReplace = fromScratch ? versioned.current() === undefined : previous.length === 0;
  if (current.length === 0 && nothingToReplace) {
    if (fromScratch) withWriteTx(storage.db, () => storage.phase2.clearRebuild(workspace.key));
    return { ...empty, report: { ...report, outcome: "empty" } };
  }
  if ((workspace.kind === "project" || fromScratch) && current.length === 0 && stillStored.length === 0) {
    // Every input it was built from is gone (its sessions were excluded and what they taught erased): a
    // workspace left behind would go on being injected with nothing behind it.
    const removed = fromScratch ? storage.stage1.previousSelection(workspace.key).length : previous.length;
    versioned.remove();
    withWriteTx(storage.db, () => {
      storage.stage1.clearSelection(workspace.key);
      storage.phase2.clearRebuild(workspace.key);
    });
    return { ...empty, report: { ...report, outcome: "removed", removed } };
  }
  if (
    !force &&
    liveValid &&
    diff.added.length === 0 &&
    diff.removed.length === 0 &&
    previous.length === current.length &&
    !staleSince(run, workspace) &&
    !statesStale(live, matcher) &&
    !doubtsChanged(live, doubts)
  ) {
    return { ...empty, report: { ...report, outcome: "unchanged" } };
  }

  const staging = versioned.stage({ empty: fromScratch });
  try {
    const summaryFiles = syncInputs(staging, [...currentInputs(diff), ...diff.removed]);
    writeFileAtomic(join(staging, "phase2_diff.md"), renderDiffFile(diff, summaryFiles));
    // The global workspace's consolidator is never shown a project's memories, stale ones included.
    const shown = workspace.kind === "global" ? stale.filter((entry) => entry.scope === GLOBAL_WORKSPACE) : stale;
    const shownMatcher = new StaleMatcher(shown);
    if (shown.length > 0) writeFileAtomic(join(staging, "superseded.md"), renderStaleFile(shown));
    // The handbook a consolidator starts from already reads what it was told is stale as history, and
    // carries no doubt: those are marked afresh after it.
    stripHandbookDoubts(staging);
    reviseHandbook(staging, shownMatcher);
    const previousFile = (file: string) => {
      const text = live ? guardedText(readIfExists(join(live, file))) : null;
      return text === null ? null : shownMatcher.revise(stripDoubtMarks(text)).text;
    };
    const result = await deps.consolidator.consolidate(
      {
        workspace,
        dir: staging,
        root: deps.memoriesRoot,
        // Files an earlier version wrote may still hold pasted instructions: a model is not shown them.
        previous: { memory: previousFile("MEMORY.md"), summary: previousFile("memory_summary.md") },
        diff,
        summaryFiles,
        stale: shown,
        now,
      },
      context,
    );
    if (result.files) writeConsolidated(staging, result.files);
    rmSync(join(staging, "phase2_diff.md"), { force: true });
    rmSync(join(staging, "superseded.md"), { force: true });
    pruneToCurrent(staging, diff);
    report.superseded = [...inputNote(hits), ...verifyCurrent(staging, matcher, live)];
    report.doubted = markDoubts(staging, doubts);
    const unaddressed = dropAgentWording(staging);
    const scrubbed = scrubSecrets(staging);
    const problems = validateWorkspace(staging);
    if (problems.length > 0) throw new Error(`invalid workspace: ${problems.join("; ")}`);
    if (context.signal.aborted) throw new Error("phase-2 lease lost; not publishing");
    versioned.publish(staging);
    withWriteTx(storage.db, () => {
      storage.stage1.markSelected(
        workspace.key,
        current.map((output) => ({ sessionId: output.sessionId, sourceUpdatedAt: output.sourceUpdatedAt })),
        workspace.kind === "project" ? { projectKey: workspace.key } : undefined,
      );
      if (fromScratch) storage.phase2.clearRebuild(workspace.key);
    });
    report.filesWritten = [
      "MEMORY.md",
      "memory_summary.md",
      "raw_memories.md",
      "rollout_summaries/",
      ...publishedSkills(workspace.dir).map((name) => `skills/${name}/SKILL.md`),
    ];
    report.warnings = [...result.warnings, ...unaddressed, ...scrubbed.map((file) => `secret redacted from ${file}`)];
    return { report, loaded: candidates, tokensIn: result.tokensIn ?? 0, tokensOut: result.tokensOut ?? 0 };
  } catch (error) {
    versioned.discard(staging);
    rethrowStoreFault(error);
    return { ...empty, loaded: [], report: { ...report, outcome: "failed", error: errorMessage(error) } };
  }
}

/** A memory of the workspace's own scope was superseded, forgotten or restored since the last success. */
function staleSince(run: RunTriggers, workspace: WorkspaceRef): boolean {
  return run.lifecycle.marks[workspace.key] !== run.lifecycle.before[workspace.key];
}

/** Whether the published files still present a stale memory as current (written before it went stale). */
function statesStale(live: string | undefined, matcher: StaleMatcher): boolean {
  if (!live || matcher.size === 0) return false;
  const skills = join(live, "skills");
  const stale = (text: string | null) => text !== null && matcher.revise(text).hits.length > 0;
  return (
    stale(readIfExists(join(live, "MEMORY.md"))) ||
    stale(readIfExists(join(live, "memory_summary.md"))) ||
    (existsSync(skills) &&
      readdirSync(skills).some((name) => {
        const text = readIfExists(join(skills, name, "SKILL.md"));
        return text !== null && stale(skillBody(text));
      }))
  );
}

/**
 * Whether the published handbook's doubt marks are not those of the flags open now (a flag decided, or
 * one opened, since it was written).
 */
function doubtsChanged(live: string | undefined, doubts: StaleMatcher): boolean {
  if (!live) return false;
  return HANDBOOK.some((file) => {
    const text = readIfExists(join(live, file));
    return text !== null && doubts.revise(stripDoubtMarks(text)).text !== text;
  });
}

function inputNote(hits: ReadonlyArray<{ stale: StaleStatement; action: string }>): string[] {
  if (hits.length === 0) return [];
  const statements = new Set(hits.map((hit) => hit.stale.statement)).size;
  return [
    `inputs: ${hits.length} mention(s) of ${statements} superseded or withdrawn memory(ies) dropped or marked as replaced before consolidation`,
  ];
}

function publishedSkills(dir: string): string[] {
  const skills = join(dir, "skills");
  try {
    return readdirSync(skills)
      .filter((name) => existsSync(join(skills, name, "SKILL.md")))
      .sort();
  } catch {
    return [];
  }
}

/** Whether phase 1 wrote an output after the last successful phase 2 took its inputs. */
export function extractedSinceLastRun(storage: Storage): boolean {
  const last = storage.phase2.lastRun();
  return last !== null && storage.stage1.generatedSince(last.inputsAt ?? last.at);
}

/** The newest stage-1 input time: the watermark a phase-2 claim records. */
export function newestInput(storage: Storage): number {
  return storage.stage1.newestSourceUpdate();
}
