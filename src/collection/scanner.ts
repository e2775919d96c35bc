import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename } from "node:path";
import type { SourceFile } from "../sources/adapter.js";
import { adapters, type ScanTarget } from "../sources/registry.js";
import type { SourceFileState } from "../store/repositories/sourceFilesRepository.js";
import { withWriteTx } from "../store/tx.js";
import type { OnProgress } from "../util/progress.js";
import {
  emptyReport,
  type FileReport,
  type FileStatus,
  failedReport,
  groupLimitsFor,
  groupsOf,
  type ImportDeps,
  importGroup,
  type PendingFile,
} from "./fileImport.js";
import { type ImportLanes, type LaneOptions, openImportLanes } from "./importLanes.js";

export type { FileReport, FileStatus } from "./fileImport.js";

export interface ScanReport {
  files: FileReport[];
  totals: Record<FileStatus, number> & { sessions: number; newSessions: number; items: number; problems: number };
  invalidatedIdle: number;
  /** Stage-1 outputs whose usage rose because new transcripts cited them. */
  citedOutputs: number;
  /** Folders the scan was to walk (given with --source, configured or the agent's default) that do not exist. */
  missingRoots: Array<{ agent: string; path: string }>;
  ms: number;
}

export type { ScanTarget } from "../sources/registry.js";

export type ScannerDeps = ImportDeps;

/** Scans with at least this many changed files import in lanes. */
const LANE_THRESHOLD = 16;
/** One lane per core, at most two: past that the lanes mostly wait for each other's writes. */
const IMPORT_LANES = Math.max(1, Math.min(2, availableParallelism()));

/**
 * One pass over every source: discovers files, skips those whose size and mtime are unchanged without
 * opening them, continues appended files from their offset, re-reads rewritten ones, and writes each
 * group of files in one short transaction. Parsing never happens inside a transaction. Large scans run
 * in import lanes (worker threads that parse and write, taking turns at the store); small ones, and runs
 * where lanes are unavailable, in this thread.
 */
export async function scanSources(
  deps: ScannerDeps,
  targets: readonly ScanTarget[],
  options: {
    onFile?: (report: FileReport, done: number) => void;
    /** Files found (no total until all are), then files read of those that changed. */
    onProgress?: OnProgress;
    lanes?: Omit<LaneOptions, "lanes">;
  } = {},
): Promise<Omit<ScanReport, "invalidatedIdle" | "citedOutputs" | "missingRoots">> {
  const started = deps.clock();
  applyExclusions(deps);
  const reports: FileReport[] = [];
  let found = 0;
  const foundOne = () => options.onProgress?.({ step: "finding", unit: "files", done: ++found });
  const report = (entry: FileReport) => {
    reports.push(entry);
    options.onFile?.(entry, reports.length);
    foundOne();
  };
  // The lanes start as soon as the scan knows it will use them: a worker takes about a tenth of a
  // second to load its modules and open the store, which then overlaps the rest of discovery.
  let lanes: ImportLanes | undefined;
  const laneable = targets.every((target) => adapters.includes(target.adapter));
  const onChanged = (count: number) => {
    foundOne();
    if (options.lanes && laneable && count === LANE_THRESHOLD) lanes = openLanes(deps, options.lanes);
  };
  try {
    const changed = await discoverChanged(targets, deps.files.all(), report, onChanged);
    options.onProgress?.({ step: "finding", unit: "files", done: found, total: found });
    // Imported in the order of their names: Claude Code, Codex and Gemini CLI name a session's file
    // by its id or its start, and the items index is ordered by session id, so a first import of a
    // long history adds to the index in order instead of splitting its pages all over.
    const ordered = byFileName(changed);
    // Groups finish out of order in lanes; the report lists files in that order all the same.
    const groups = groupsOf(ordered, groupLimitsFor(ordered.length));
    let finished = reports.length;
    let read = 0;
    const reading = (done: number) =>
      options.onProgress?.({ step: "reading", unit: "files", done, total: ordered.length });
    if (ordered.length > 0) reading(0);
    const importOne = async (group: readonly PendingFile[]) => {
      const done = lanes ? await lanes.import(group) : await importGroup(deps, group);
      for (const entry of done) {
        options.onFile?.(entry, ++finished);
        reading(++read);
      }
      return done;
    };
    if (lanes) reports.push(...(await Promise.all(groups.map(importOne))).flat());
    else for (const group of groups) reports.push(...(await importOne(group)));
  } finally {
    await lanes?.close();
  }
  return { files: reports, totals: totalsOf(reports), ms: deps.clock() - started };
}

/**
 * Every file of every target, each reported at once when it is skipped, cannot be stat'ed or has the
 * size and mtime the last scan stored; the others (new or changed) are returned, `onChanged` told of
 * each as it is found.
 */
async function discoverChanged(
  targets: readonly ScanTarget[],
  known: ReadonlyMap<string, SourceFileState>,
  report: (entry: FileReport) => void,
  onChanged: (count: number) => void,
): Promise<PendingFile[]> {
  const changed: PendingFile[] = [];
  for (const target of targets) {
    const seen = new Set<string>();
    for (const root of target.roots) {
      for (const file of await target.adapter.discover(root)) {
        if (seen.has(file.path)) continue;
        seen.add(file.path);
        if (file.skipped) {
          report({ ...emptyReport(file), problems: [{ file: file.path, reason: file.skipped }] });
          continue;
        }
        const previous = known.get(file.path);
        const stamp = fileStamp(file);
        if (!stamp) report(failedReport(file, "cannot stat file"));
        else if (previous && previous.size === stamp.size && previous.mtimeMs === stamp.mtimeMs)
          report(emptyReport(file));
        else {
          changed.push({ adapter: target.adapter, file, previous, stamp });
          onChanged(changed.length);
        }
      }
    }
  }
  return changed;
}

/**
 * `memories.exclude` over the sessions already stored: newly excluded ones lose their items now, even
 * if their files are unchanged; files of sessions no longer excluded are forgotten, so they are read
 * again whole and their items come back.
 */
function applyExclusions(deps: ScannerDeps): void {
  // No write transaction (and no wait for another writer) when there is nothing to apply.
  if (!deps.collector.needsExclusionSweep()) return;
  withWriteTx(deps.db, () => {
    const sweep = deps.collector.sweepExclusions();
    if (sweep.restored.length > 0) deps.files.forgetSessions(sweep.restored);
  });
}

/**
 * Lanes pay off only for many files (the caller opens them at the `LANE_THRESHOLD`th changed file),
 * need a store on disk and only run adapters they can load by name.
 */
function openLanes(deps: ScannerDeps, options: Omit<LaneOptions, "lanes">): ImportLanes | undefined {
  try {
    const exclude = deps.collector.exclude.length > 0 ? { exclude: deps.collector.exclude } : {};
    return openImportLanes({ ...options, ...exclude, lanes: IMPORT_LANES }, (group, turn) =>
      importGroup(deps, group, turn),
    );
  } catch {
    return undefined;
  }
}

function byFileName(files: readonly PendingFile[]): PendingFile[] {
  const keyed = files.map((entry) => ({ entry, name: basename(entry.file.path), path: entry.file.path }));
  const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  keyed.sort((a, b) => order(a.name, b.name) || order(a.path, b.path));
  return keyed.map(({ entry }) => entry);
}

/** Size and mtime of a file together with its companions (a database and its WAL change together). */
function fileStamp(file: SourceFile): { size: number; mtimeMs: number } | undefined {
  let size = 0;
  let mtimeMs = 0;
  for (const [index, path] of [file.path, ...(file.companions ?? [])].entries()) {
    try {
      const stat = statSync(path);
      size += stat.size;
      mtimeMs = Math.max(mtimeMs, Math.trunc(stat.mtimeMs));
    } catch {
      if (index === 0) return undefined;
    }
  }
  return { size, mtimeMs };
}

function totalsOf(reports: readonly FileReport[]): ScanReport["totals"] {
  const totals: ScanReport["totals"] = {
    imported: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    sessions: 0,
    newSessions: 0,
    items: 0,
    problems: 0,
  };
  for (const report of reports) {
    totals[report.status] += 1;
    totals.sessions += report.sessions;
    totals.items += report.itemsWritten;
    totals.problems += report.problems.length;
  }
  return totals;
}
