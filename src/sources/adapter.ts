import { sha256 } from "../util/hash.js";
import type { AgentName, ParseOutput } from "./types.js";
import type { SkippedPath } from "./walk.js";

/** The files of a discovery, followed by the paths it skipped (reported, not read). */
export function discovered(agent: AgentName, paths: readonly string[], skipped: readonly SkippedPath[]): SourceFile[] {
  return [
    ...paths.map((path) => ({ path, agent })),
    ...skipped.map((entry) => ({ path: entry.path, agent, skipped: entry.reason })),
  ];
}

/** A file (or database) an adapter can read, found under one of its roots. */
export interface SourceFile {
  path: string;
  agent: AgentName;
  /** Files whose change is detected together (OpenCode's -wal next to its database). */
  companions?: string[];
  /** Found but not to be read (a symlink out of the agent's folder): the scan reports this reason. */
  skipped?: string;
}

/**
 * Line-oriented formats can continue from a byte offset with a small carried state; whole-file
 * formats (JSON documents, SQLite, replayed JSONL) are re-read completely when they change.
 */
export interface LineResume {
  /** Bytes and lines already consumed (always at a line boundary). */
  offset: number;
  line: number;
  /** Whatever the adapter needs to continue (session metadata, open tool calls, ...). JSON-serializable. */
  state: unknown;
}

/**
 * Bytes of a transcript one read parses at most. A larger file is imported in windows, each written
 * before the next is read, so memory stays bounded whatever the file's size.
 */
export const READ_WINDOW_BYTES = 64 * 1024 * 1024;

export interface ReadRequest {
  file: SourceFile;
  /**
   * Bytes to read at most (line-oriented adapters that can resume): the read stops at a line boundary
   * past it and says `more`. Absent: the whole file.
   */
  window?: number;
  /** Present when the file only grew since the last read and the adapter said it can resume. */
  resume?: LineResume;
}

/** Bytes before a resume offset whose hash is kept with it: a file that still ends them there only grew. */
export const TAIL_BYTES = 256;

/** The hash of a resume point's tail bytes (the `TAIL_BYTES` before its offset, fewer at a file's start). */
export function tailHashOf(bytes: Buffer): string {
  return sha256(bytes);
}

export interface ReadResult extends ParseOutput {
  /** Where to continue next time; undefined means "re-read the whole file when it changes". */
  resume?: LineResume;
  /**
   * `tailHashOf` the bytes before `resume.offset`, when the adapter read them: the import takes it
   * from the file itself otherwise.
   */
  tailHash?: string;
  /**
   * Set by a resumed read that met something rewriting earlier history (a rollback, a branch, a
   * rewind): the scanner then discards this result and reads the whole file again.
   */
  needsFullRead?: boolean;
  /** The read stopped at its `window` before the end of the file: continue from `resume`. */
  more?: boolean;
}

export interface SourceAdapter {
  agent: AgentName;
  /** Every session file under a root. Must not throw on a missing root (returns nothing). */
  discover(root: string): Promise<SourceFile[]>;
  /** Parses one file. Never throws for bad content: problems are returned, located and counted. */
  read(request: ReadRequest): Promise<ReadResult>;
}
