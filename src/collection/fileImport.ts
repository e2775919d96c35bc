import { closeSync, openSync, readSync } from "node:fs";
import type { Database } from "better-sqlite3";
import {
  type LineResume,
  READ_WINDOW_BYTES,
  type ReadRequest,
  type SourceAdapter,
  type SourceFile,
  TAIL_BYTES,
  tailHashOf,
} from "../sources/adapter.js";
import type { AgentName, ParseProblem } from "../sources/types.js";
import {
  guardResumeState,
  type SourceFileState,
  type SourceFilesRepository,
} from "../store/repositories/sourceFilesRepository.js";
import { withWriteTx } from "../store/tx.js";
import type { Clock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import { type Collector, contentHash } from "./collector.js";
import { readSource, type SourceRead } from "./readSource.js";

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

/** What writing a file's sessions needs: one connection and the repositories over it. */
export interface ImportDeps {
  db: Database;
  files: SourceFilesRepository;
  collector: Collector;
  clock: Clock;
  /** Bytes one read of a transcript parses at most (default `READ_WINDOW_BYTES`); tests make it small. */
  readWindowBytes?: number;
}

/** A file the scan found changed: what the last scan stored about it and its size and mtime now. */
export interface PendingFile {
  adapter: SourceAdapter;
  file: SourceFile;
  previous: SourceFileState | undefined;
  stamp: { size: number; mtimeMs: number };
}

/** The read to do: from the stored offset when the file only grew, else the whole file. */
export function readRequestFor(entry: PendingFile, window = READ_WINDOW_BYTES): ReadRequest {
  const resume = canResume(entry.file, entry.previous, entry.stamp.size) ? entry.previous?.resume : undefined;
  return resume ? { file: entry.file, resume, window } : { file: entry.file, window };
}

/** A file's parsed content, or the report of why it could not be read. */
export type FileRead = { read: SourceRead } | { failed: FileReport };

/** Files imported together: read one after another, then written in one transaction. */
export const GROUP_LIMITS = { files: 128, bytes: 8 * 1024 * 1024 };

/**
 * Group limits for a scan of `count` changed files: up to 128 files a group, since every commit
 * rewrites the index pages it touched and small transcripts make many groups, yet at least eight
 * groups where there are 1,024 files or fewer (16 files at least), so that both lanes have work.
 */
export function groupLimitsFor(count: number): typeof GROUP_LIMITS {
  return { ...GROUP_LIMITS, files: Math.max(16, Math.min(GROUP_LIMITS.files, Math.ceil(count / 8))) };
}

/** Splits changed files into consecutive groups bounded in files and bytes. */
export function groupsOf<T extends { stamp: { size: number } }>(files: readonly T[], limits = GROUP_LIMITS): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const file of files) {
    if (current.length > 0 && (current.length >= limits.files || bytes + file.stamp.size > limits.bytes)) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.stamp.size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Reads (parses and redacts) one file outside any transaction. Never throws. */
export async function readPending(entry: PendingFile, window?: number): Promise<FileRead> {
  try {
    const read = prepareWrite(entry.file, await readSource(entry.adapter, readRequestFor(entry, window)));
    // Hashing here keeps it out of the write turn, where the other lane would wait for it.
    if (read.mode === "full") for (const parsed of read.result.sessions) parsed.contentHash = contentHash(parsed.items);
    return { read };
  } catch (error) {
    return { failed: failedReport(entry.file, `unreadable: ${errorMessage(error)}`) };
  }
}

/**
 * Writes a group of read files in one transaction, each file in a savepoint of its own: one commit
 * per group instead of one per file (each commit rewrites the index pages it touched), while a file
 * that fails to store rolls back alone. If the commit itself fails, none of the group is stored and
 * every file says so; the next scan reads them again.
 */
export function storeGroup(
  deps: ImportDeps,
  group: ReadonlyArray<{ entry: PendingFile; read: FileRead }>,
): FileReport[] {
  try {
    return withWriteTx(deps.db, () =>
      group.map(({ entry, read }) => {
        if ("failed" in read) return read.failed;
        try {
          return applyRead(deps, entry, read.read);
        } catch (error) {
          return failedReport(entry.file, `not stored: ${errorMessage(error)}`);
        }
      }),
    );
  } catch (error) {
    return group.map(({ entry, read }) =>
      "failed" in read ? read.failed : failedReport(entry.file, `not stored: ${errorMessage(error)}`),
    );
  }
}

type Turn = <T>(write: () => T) => T;

/**
 * Imports a group: every file read first, then all written in one transaction inside `turn`. A file
 * larger than one read window is imported window by window, each written before the next is read.
 */
export async function importGroup(
  deps: ImportDeps,
  group: readonly PendingFile[],
  turn: Turn = (write) => write(),
): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  let reads: Array<{ entry: PendingFile; read: FileRead }> = [];
  const flush = () => {
    if (reads.length > 0) reports.push(...turn(() => storeGroup(deps, reads)));
    reads = [];
  };
  for (const entry of group) {
    const read = await readEntry(deps, entry);
    if ("read" in read && read.read.result.more) {
      flush();
      reports.push(await importWindows(deps, entry, read.read, turn));
    } else reads.push({ entry, read });
  }
  flush();
  return reports;
}

/**
 * The per-file work of a write done ahead of it, outside the import lanes' write turn (which the
 * other lane waits for): the resume state guarded for storage and the hash of the bytes before the
 * resume offset. A later window of the file continues from the guarded state, as a later scan would.
 */
function prepareWrite(file: SourceFile, read: SourceRead): SourceRead {
  const { resume } = read.result;
  if (!resume) return read;
  read.result.resume = { ...resume, state: guardResumeState(resume.state ?? null) };
  read.tailHash = read.result.tailHash ?? tailHash(file.path, resume.offset);
  return read;
}

/** Bytes read first from a file while `memories.exclude` is set: enough to learn its sessions' cwd. */
export const EXCLUSION_PROBE_BYTES = 64 * 1024;

/**
 * Reads a changed file. While `memories.exclude` is set, its first bytes are read alone first: a file
 * whose sessions are all excluded is read no further, and only their metadata is kept.
 */
async function readEntry(deps: ImportDeps, entry: PendingFile): Promise<FileRead> {
  if (deps.collector.exclude.length === 0) return readPending(entry, deps.readWindowBytes);
  const probe = await readPending(entry, Math.min(EXCLUSION_PROBE_BYTES, deps.readWindowBytes ?? READ_WINDOW_BYTES));
  if (!("read" in probe)) return probe;
  const { result } = probe.read;
  if (result.sessions.length > 0 && result.sessions.every((parsed) => deps.collector.isExcluded(parsed.session))) {
    // Metadata only; no resume point, so a change to the file is probed again from its start.
    const sessions = result.sessions.map((parsed) => ({ session: parsed.session, items: [] }));
    return { read: { mode: "full", result: { sessions, problems: result.problems, skipped: result.skipped } } };
  }
  return result.more ? readPending(entry, deps.readWindowBytes) : probe;
}

/**
 * The windows of a file too large for one read, from its first: each is written (and the file's scan
 * state saved at its end, so an interrupted import resumes there) before the next is read.
 */
async function importWindows(deps: ImportDeps, entry: PendingFile, first: SourceRead, turn: Turn): Promise<FileReport> {
  let report = turn(() => storeGroup(deps, [{ entry, read: { read: first } }]))[0]!;
  let resume: LineResume | undefined = first.result.resume;
  let more = first.result.more === true;
  while (more && resume && report.status !== "failed") {
    const request = { file: entry.file, resume, window: deps.readWindowBytes ?? READ_WINDOW_BYTES };
    let next: SourceRead;
    try {
      next = prepareWrite(entry.file, await readSource(entry.adapter, request, { fullReadFallback: false }));
    } catch (error) {
      return merged(report, failedReport(entry.file, `unreadable: ${errorMessage(error)}`));
    }
    if (next.result.needsFullRead) {
      // A whole read of this file would hold all of it in memory: what came before stays imported.
      const reason = `history rewritten past byte ${resume.offset} of a file larger than one read window; the rest is not imported`;
      return merged(report, { ...emptyReport(entry.file), problems: [{ file: entry.file.path, reason }] });
    }
    const continued: PendingFile = { ...entry, previous: entry.previous ?? continuing(entry, resume) };
    report = merged(report, turn(() => storeGroup(deps, [{ entry: continued, read: { read: next } }]))[0]!);
    resume = next.result.resume;
    more = next.result.more === true;
  }
  return report;
}

/** The scan state a file's next window continues from (only its session ids are read). */
function continuing(entry: PendingFile, resume: LineResume): SourceFileState {
  return {
    path: entry.file.path,
    agent: entry.file.agent,
    size: resume.offset,
    mtimeMs: entry.stamp.mtimeMs,
    resume,
    tailHash: null,
    sessionIds: [],
    problems: 0,
    scannedAt: 0,
  };
}

/** One report for a file imported in several windows: the first window's status, everything summed. */
function merged(first: FileReport, next: FileReport): FileReport {
  return {
    ...first,
    status: next.status === "failed" ? "failed" : first.status,
    itemsWritten: first.itemsWritten + next.itemsWritten,
    sessions: Math.max(first.sessions, next.sessions),
    problems: [...first.problems, ...next.problems],
    skipped: first.skipped + next.skipped,
  };
}

/** Writes one file's sessions and its new scan state in one transaction (a savepoint inside a batch). */
export function applyRead(deps: ImportDeps, entry: PendingFile, read: SourceRead): FileReport {
  const { file, previous } = entry;
  const { result } = read;
  // Part of a file imported in windows: its stored size is where the next window starts, so a scan
  // interrupted between windows sees the file changed and resumes there.
  const stamp = result.more && result.resume ? { ...entry.stamp, size: result.resume.offset } : entry.stamp;
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
      tailHash: !result.resume
        ? null
        : read.tailHash !== undefined
          ? read.tailHash
          : tailHash(file.path, result.resume.offset),
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

export function emptyReport(file: SourceFile): FileReport {
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

/** A file that could not be read or stored: the scan reports it and goes on. */
export function failedReport(file: SourceFile, reason: string): FileReport {
  return { ...emptyReport(file), status: "failed", problems: [{ file: file.path, reason }] };
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
    return tailHashOf(buffer.subarray(0, read));
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
