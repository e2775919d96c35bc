import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { Database } from "better-sqlite3";
import { withWriteTx } from "../db/tx.js";
import type { Collector } from "../sessions/collector.js";
import type { Clock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import { sha256 } from "../util/hash.js";
import type { ReadResult, SourceAdapter, SourceFile } from "./adapter.js";
import type { SourceFileState, SourceFilesRepository } from "./sourceFilesRepository.js";
import type { AgentName, ParseProblem } from "./types.js";

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

/**
 * One pass over every source: discovers files, skips those whose size and mtime are unchanged without
 * opening them, continues appended files from their offset, re-reads rewritten ones, and writes each
 * file's sessions in one short transaction. Parsing happens before the transaction.
 */
export async function scanSources(
  deps: ScannerDeps,
  targets: readonly ScanTarget[],
  options: { onFile?: (report: FileReport, done: number) => void } = {},
): Promise<Omit<ScanReport, "invalidatedIdle" | "citedOutputs">> {
  const started = deps.clock();
  const known = deps.files.all();
  const reports: FileReport[] = [];
  let done = 0;
  for (const target of targets) {
    const seen = new Set<string>();
    for (const root of target.roots) {
      for (const file of await target.adapter.discover(root)) {
        if (seen.has(file.path)) continue;
        seen.add(file.path);
        const report = await scanFile(deps, target.adapter, file, known.get(file.path));
        reports.push(report);
        done += 1;
        options.onFile?.(report, done);
      }
    }
  }
  return { files: reports, totals: totalsOf(reports), ms: deps.clock() - started };
}

async function scanFile(
  deps: ScannerDeps,
  adapter: SourceAdapter,
  file: SourceFile,
  previous: SourceFileState | undefined,
): Promise<FileReport> {
  const base: FileReport = {
    path: file.path,
    agent: file.agent,
    status: "unchanged",
    read: "none",
    sessions: 0,
    itemsWritten: 0,
    problems: [],
    skipped: 0,
  };
  const stamp = fileStamp(file);
  if (!stamp) return { ...base, status: "failed", problems: [{ file: file.path, reason: "cannot stat file" }] };
  if (previous && previous.size === stamp.size && previous.mtimeMs === stamp.mtimeMs) return base;

  const resume = canResume(file, previous, stamp.size) ? (previous?.resume ?? undefined) : undefined;
  let result: ReadResult;
  let read: FileReport["read"] = resume ? "append" : "full";
  try {
    result = await adapter.read(resume ? { file, resume } : { file });
    if (result.needsFullRead) {
      read = "full";
      result = await adapter.read({ file });
    }
  } catch (error) {
    return { ...base, status: "failed", problems: [{ file: file.path, reason: `unreadable: ${errorMessage(error)}` }] };
  }

  let itemsWritten = 0;
  let anyChange = false;
  withWriteTx(deps.db, () => {
    for (const parsed of result.sessions) {
      const applied = deps.collector.apply(read === "append" ? { ...parsed, partial: true } : parsed, file.path);
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
  const status: FileStatus = !previous ? "imported" : anyChange ? "updated" : "unchanged";
  return {
    ...base,
    status,
    read,
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
