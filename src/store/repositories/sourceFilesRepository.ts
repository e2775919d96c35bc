import type { Database } from "better-sqlite3";
import { mapStringsDeep } from "../../redact/deep.js";
import { guardText, stripUrlCredentials } from "../../redact/guard.js";
import type { LineResume } from "../../sources/adapter.js";
import type { AgentName } from "../../sources/types.js";
import { Statements } from "../statements.js";

/** What the scanner remembers about a file between scans, to skip it or continue it. */
export interface SourceFileState {
  path: string;
  agent: AgentName;
  size: number;
  mtimeMs: number;
  /** Present for line formats that can continue from an offset. */
  resume: LineResume | null;
  /** Hash of the bytes just before `resume.offset`: proves the old content is still a prefix. */
  tailHash: string | null;
  sessionIds: string[];
  problems: number;
  scannedAt: number;
}

interface Row {
  path: string;
  agent: string;
  size: number;
  mtime_ms: number;
  offset: number;
  line: number;
  tail_hash: string | null;
  resume_state: string | null;
  session_ids: string;
  problems: number;
  scanned_at: number;
}

export class SourceFilesRepository {
  private readonly sql: Statements;

  constructor(db: Database) {
    this.sql = new Statements(db);
  }

  /** Every known file in one query: a rescan compares against this map instead of querying per file. */
  all(): Map<string, SourceFileState> {
    const rows = this.sql.get("SELECT * FROM source_files").all() as Row[];
    return new Map(rows.map((row) => [row.path, toState(row)]));
  }

  save(state: SourceFileState): void {
    this.sql
      .get(
        `INSERT INTO source_files (path, agent, size, mtime_ms, offset, line, tail_hash, resume_state, session_ids, problems, scanned_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET agent = excluded.agent, size = excluded.size, mtime_ms = excluded.mtime_ms,
           offset = excluded.offset, line = excluded.line, tail_hash = excluded.tail_hash,
           resume_state = excluded.resume_state, session_ids = excluded.session_ids, problems = excluded.problems,
           scanned_at = excluded.scanned_at`,
      )
      .run(
        state.path,
        state.agent,
        state.size,
        Math.trunc(state.mtimeMs),
        state.resume?.offset ?? 0,
        state.resume?.line ?? 0,
        state.tailHash,
        state.resume ? JSON.stringify(guardResumeState(state.resume.state ?? null)) : null,
        JSON.stringify(state.sessionIds),
        state.problems,
        state.scannedAt,
      );
  }

  /** Forgets files (memory of a project cleared): the next scan imports them afresh. */
  forgetSessions(sessionIds: string[]): number {
    const wanted = new Set(sessionIds);
    let removed = 0;
    for (const state of this.all().values()) {
      if (state.sessionIds.some((id) => wanted.has(id))) {
        removed += this.sql.get("DELETE FROM source_files WHERE path = ?").run(state.path).changes;
      }
    }
    return removed;
  }
}

/** Resume states already guarded, by `guardResumeState` ahead of their write. */
const guardedStates = new WeakSet<object>();

/**
 * A resume state can carry what the file recorded (a session's remote URL, its title): guarded like the
 * session row, a remote losing its credentials first so that a resumed read still names the project.
 * Returns a guarded copy, marked so that guarding it again (as `save` does) returns it as it is: the
 * import guards each file's state while it reads, outside the import lanes' serialized write turn.
 * The copy is frozen: a marked state cannot change afterwards.
 */
export function guardResumeState(state: unknown): unknown {
  if (state !== null && typeof state === "object" && guardedStates.has(state)) return state;
  const guarded = mapStringsDeep(state, (text) => guardText(stripUrlCredentials(text)));
  if (guarded !== null && typeof guarded === "object") guardedStates.add(frozen(guarded));
  return guarded;
}

/** Frozen all the way down: a change after guarding would be stored unguarded, so it throws instead. */
function frozen<T extends object>(value: T): T {
  for (const item of Object.values(value)) if (item !== null && typeof item === "object") frozen(item);
  return Object.freeze(value);
}

function toState(row: Row): SourceFileState {
  return {
    path: row.path,
    agent: row.agent as AgentName,
    size: row.size,
    mtimeMs: row.mtime_ms,
    resume:
      row.resume_state === null ? null : { offset: row.offset, line: row.line, state: JSON.parse(row.resume_state) },
    tailHash: row.tail_hash,
    sessionIds: JSON.parse(row.session_ids) as string[],
    problems: row.problems,
    scannedAt: row.scanned_at,
  };
}
