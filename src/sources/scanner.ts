import { closeSync, openSync, readSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Database } from "better-sqlite3";
import { withWriteTx } from "../db/tx.js";
import type { Collector } from "../sessions/collector.js";
import type { Clock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import { sha256 } from "../util/hash.js";
import type { SourceAdapter, SourceFile } from "./adapter.js";
import type { SourceRead } from "./readSource.js";
import { adapters } from "./registry.js";
import type { SourceFileState, SourceFilesRepository } from "./sourceFilesRepository.js";
import { inThreadReader, type SourceReader, workerReader } from "./sourceReader.js";
import type { AgentName, ParseProblem } from "./types.js";
import { WriteBatch } from "./writeBatch.js";

export type FileStatus = "imported" | "updated" | "unchanged" | "failed";

export interface FileReport {
  path: string;
  agent: AgentName;
  status: FileStatus;
  /** How the file was read: appended bytes only, or the whole file. */
  read: "append" | "full" | "none";
  sessions: number;
  itemsWritten: number;
  problems: ParseProblem[];
  skipped: number;
}

export interface ScanReport {
  files: FileReport[];
  totals: Record<FileStatus, number> & { sessions: number; newSessions: number; items: number; problems: number };
  invalidatedIdle: number;
  /** Stage-1 outputs whose usage rose because new transcripts cited them. */
  citedOutputs: number;
  ms: number;
}

export interface ScanTarget {
  adapter: SourceAdapter;
  roots: string[];
}

export interface ScannerDeps {
  db: Database;
  files: SourceFilesRepository;
  collector: Collector;
  clock: Clock;
}

const TAIL_BYTES = 256;

/** Scans with at least this many changed files parse in a worker thread, overlapping parse and write. */
const WORKER_THRESHOLD = 16;
/** Files read ahead of the one being written. */
const LOOKAHEAD = 4;
/** Parsing (with redaction) costs more than writing: two parse workers keep the writer busy. */
const PARSE_WORKERS = Math.max(1, Math.min(2, availableParallelism()));

interface PendingFile {
  adapter: SourceAdapter;
  file: SourceFile;
  previous: SourceFileState | undefined;
  stamp: { size: number; mtimeMs: number };
}

/**
 * One pass over every source: discovers files, skips those whose size and mtime are unchanged without
 * opening them, continues appended files from their offset, re-reads rewritten ones, and writes each
 * file's sessions in one short transaction. Parsing never happens inside a transaction; on large scans
 * it runs in a worker thread while the previous file is written.
 */
export async function scanSources(
  deps: ScannerDeps,
  targets: readonly ScanTarget[],
  options: { onFile?: (report: FileReport, done: number) => void; reader?: SourceReader } = {},
): Promise<Omit<ScanReport, "invalidatedIdle" | "citedOutputs">> {
  const started = deps.clock();
  const known = deps.files.all();
  const reports: FileReport[] = [];
  const changed: PendingFile[] = [];
  const report = (entry: FileReport) => {
    reports.push(entry);
    options.onFile?.(entry, reports.length);
  };
  for (const target of targets) {
    const seen = new Set<string>();
    for (const root of target.roots) {
      for (const file of await target.adapter.discover(root)) {
        if (seen.has(file.path)) continue;
        seen.add(file.path);
        const previous = known.get(file.path);
        const stamp = fileStamp(file);
        if (!stamp)
          report({
            ...emptyReport(file),
            status: "failed",
            problems: [{ file: file.path, reason: "cannot stat file" }],
          });
        else if (previous && previous.size === stamp.size && previous.mtimeMs === stamp.mtimeMs)
          report(emptyReport(file));
        else changed.push({ adapter: target.adapter, file, previous, stamp });
      }
    }
  }
  const reader = options.reader ?? chooseReader(changed);
  const batch = new WriteBatch(deps.db);
  let completed = false;
  try {
    const reads = changed.map(() => undefined as Promise<SourceRead> | undefined);
    const start = (index: number) => {
      const entry = changed[index];
      if (!entry || reads[index]) return;
      const resume = canResume(entry.file, entry.previous, entry.stamp.size)
        ? (entry.previous?.resume ?? undefined)
        : undefined;
      reads[index] = reader.read(entry.adapter, resume ? { file: entry.file, resume } : { file: entry.file });
      reads[index]?.catch(() => {});
    };
    for (let index = 0; index < changed.length; index++) {
      for (let ahead = index; ahead <= index + LOOKAHEAD; ahead++) start(ahead);
      const entry = changed[index]!;
      let read: SourceRead;
      // Waiting for a parse while holding the write lock would block other processes: an older batch
      // is committed first.
      batch.commitIfOlderThan(100);
      try {
        read = await reads[index]!;
      } catch (error) {
        report({
          ...emptyReport(entry.file),
          status: "failed",
          problems: [{ file: entry.file.path, reason: `unreadable: ${errorMessage(error)}` }],
        });
        continue;
      }
      reads[index] = undefined;
      try {
        report(batch.add(entry.stamp.size, () => applyRead(deps, entry, read)));
      } catch (error) {
        // The file's own savepoint rolled back; the batch and the rest of the scan go on.
        report({
          ...emptyReport(entry.file),
          status: "failed",
          problems: [{ file: entry.file.path, reason: `not stored: ${errorMessage(error)}` }],
        });
      }
    }
    batch.commit();
    completed = true;
  } finally {
    if (!completed) batch.rollback();
    if (reader !== options.reader) await reader.close();
  }
  return { files: reports, totals: totalsOf(reports), ms: deps.clock() - started };
}

/** A worker thread pays off only for many files, and only runs adapters it can load by name. */
function chooseReader(changed: readonly PendingFile[]): SourceReader {
  if (changed.length < WORKER_THRESHOLD || !changed.every((entry) => adapters.includes(entry.adapter)))
    return inThreadReader;
  try {
    return workerReader(PARSE_WORKERS) ?? inThreadReader;
  } catch {
    return inThreadReader;
  }
}

function emptyReport(file: SourceFile): FileReport {
  return {
    path: file.path,
    agent: file.agent,
    status: "unchanged",
    read: "none",
    sessions: 0,
    itemsWritten: 0,
    problems: [],
    skipped: 0,
  };
}

/** Writes one file's sessions and its new scan state in one transaction. */
function applyRead(deps: ScannerDeps, entry: PendingFile, read: SourceRead): FileReport {
  const { file, previous, stamp } = entry;
  const { result } = read;
  let itemsWritten = 0;
  let anyChange = false;
  withWriteTx(deps.db, () => {
    for (const parsed of result.sessions) {
      const applied = deps.collector.apply(read.mode === "append" ? { ...parsed, partial: true } : parsed, file.path);
      itemsWritten += applied.written;
      if (applied.status !== "unchanged") anyChange = true;
    }
    const sessionIds = new Set(previous?.sessionIds ?? []);
    for (const parsed of result.sessions) sessionIds.add(parsed.session.id);
    deps.files.save({
      path: file.path,
      agent: file.agent,
      size: stamp.size,
      mtimeMs: stamp.mtimeMs,
      resume: result.resume ?? null,
      tailHash: result.resume ? tailHash(file.path, result.resume.offset) : null,
      sessionIds: [...sessionIds],
      problems: result.problems.length,
      scannedAt: deps.clock(),
    });
  });
  return {
    ...emptyReport(file),
    status: !previous ? "imported" : anyChange ? "updated" : "unchanged",
    read: read.mode,
    sessions: result.sessions.length,
    itemsWritten,
    problems: result.problems,
    skipped: result.skipped,
  };
}

/** An append can continue only if the file grew and the bytes before the old offset are the same. */
function canResume(file: SourceFile, previous: SourceFileState | undefined, size: number): boolean {
  if (!previous?.resume || !previous.tailHash || (file.companions?.length ?? 0) > 0) return false;
  if (size < previous.resume.offset || size < previous.size) return false;
  return tailHash(file.path, previous.resume.offset) === previous.tailHash;
}

function tailHash(path: string, offset: number): string | null {
  const start = Math.max(0, offset - TAIL_BYTES);
  const length = offset - start;
  const buffer = Buffer.alloc(length);
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const read = readSync(fd, buffer, 0, length, start);
    return sha256(buffer.subarray(0, read));
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
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
