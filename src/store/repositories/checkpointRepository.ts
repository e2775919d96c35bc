import type { Database } from "better-sqlite3";
import { guardDeep, guardOptional, guardText } from "../../redact/guard.js";
import { Statements } from "../statements.js";

/** What fired a checkpoint (seed 004): a period, a compaction, the session's end, the agent, the user. */
export const CHECKPOINT_TRIGGERS = ["periodic", "pre_compaction", "session_end", "agent", "explicit"] as const;
export type CheckpointTrigger = (typeof CHECKPOINT_TRIGGERS)[number];

/** A command the session ran, and what its result showed. */
export interface CheckpointCommand {
  command: string;
  outcome: "failed" | "succeeded" | "unknown";
  error?: string;
}

/** What cairn could tell of the session without a model, kept so a merge can re-render the digest. */
export interface CheckpointState {
  /** The user's latest requests, oldest first (headlines). */
  focus: string[];
  commands: CheckpointCommand[];
  /** Files the agent wrote, most edited first. */
  files: string[];
  /** The last request when the session stopped mid-work (no final answer), else null. */
  openWork: string | null;
  /** Commits, tags and pushes the session made, in words ("" when none). */
  git: string;
  /** The agent's last answer (a headline), when its last turn finished. */
  outcome: string | null;
}

export interface CheckpointInput {
  sessionKey: string;
  agent: string;
  projectKey: string | null;
  cwd: string | null;
  trigger: CheckpointTrigger;
  digest: string;
  /** Prompts this checkpoint covers: those since the session's previous checkpoint. */
  promptCount: number;
  /** The session's prompts seen so far. */
  promptTotal: number;
  memoryQueries: string[];
  recentRemembers: string[];
  state: CheckpointState;
}

export interface CheckpointRecord extends CheckpointInput {
  id: number;
  createdAt: number;
  updatedAt: number;
}

interface Row {
  id: number;
  session_key: string;
  agent: string;
  project_key: string | null;
  cwd: string | null;
  trigger: string;
  digest: string;
  prompt_count: number;
  prompt_total: number;
  memory_queries: string;
  recent_remembers: string;
  state: string;
  created_at: number;
  updated_at: number;
}

/**
 * The session checkpoints table. Every write passes its text through the one guard (src/redact), so a
 * secret in a transcript, a pushed item or a caller's request never reaches a checkpoint whatever the
 * door. Deletions are hard: a checkpoint is a short-lived recovery aid, not a memory.
 */
export class CheckpointRepository {
  private readonly sql: Statements;

  constructor(db: Database) {
    this.sql = new Statements(db);
  }

  insert(input: CheckpointInput, now: number): number {
    const row = guarded(input);
    const result = this.sql
      .get(
        `INSERT INTO session_checkpoints (session_key, agent, project_key, cwd, trigger, digest, prompt_count,
           prompt_total, memory_queries, recent_remembers, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(...row, now, now);
    return Number(result.lastInsertRowid);
  }

  /** Replaces a checkpoint's content (a merge within the flush window); its creation time stays. */
  update(id: number, input: CheckpointInput, now: number): void {
    const row = guarded(input);
    this.sql
      .get(
        `UPDATE session_checkpoints SET session_key = ?, agent = ?, project_key = ?, cwd = ?, trigger = ?, digest = ?,
           prompt_count = ?, prompt_total = ?, memory_queries = ?, recent_remembers = ?, state = ?, updated_at = ?
         WHERE id = ?`,
      )
      .run(...row, now, id);
  }

  /** The session's newest checkpoint. */
  latestOf(sessionKey: string): CheckpointRecord | undefined {
    const row = this.sql
      .get("SELECT * FROM session_checkpoints WHERE session_key = ? ORDER BY updated_at DESC, id DESC LIMIT 1")
      .get(guardText(sessionKey)) as Row | undefined;
    return row && record(row);
  }

  /** The newest checkpoint of a project updated at or after `since` (any session of it). */
  latestOfProject(projectKey: string, since: number): CheckpointRecord | undefined {
    const row = this.sql
      .get(
        "SELECT * FROM session_checkpoints WHERE project_key = ? AND updated_at >= ? ORDER BY updated_at DESC, id DESC LIMIT 1",
      )
      .get(projectKey, since) as Row | undefined;
    return row && record(row);
  }

  /** A session's checkpoints, oldest first (all sessions' when none is named). */
  list(sessionKey?: string): CheckpointRecord[] {
    const rows = (
      sessionKey === undefined
        ? this.sql.get("SELECT * FROM session_checkpoints ORDER BY created_at, id").all()
        : this.sql
            .get("SELECT * FROM session_checkpoints WHERE session_key = ? ORDER BY created_at, id")
            .all(guardText(sessionKey))
    ) as Row[];
    return rows.map(record);
  }

  /** Deletes the session's oldest checkpoints beyond `max`; returns how many went. */
  capSession(sessionKey: string, max: number): number {
    return this.sql
      .get(
        `DELETE FROM session_checkpoints WHERE session_key = ? AND id NOT IN (
           SELECT id FROM session_checkpoints WHERE session_key = ? ORDER BY created_at DESC, id DESC LIMIT ?)`,
      )
      .run(guardText(sessionKey), guardText(sessionKey), max).changes;
  }

  /** Deletes up to `limit` checkpoints last updated before `cutoff`, oldest first; returns how many went. */
  pruneBefore(cutoff: number, limit: number): number {
    return this.sql
      .get(
        `DELETE FROM session_checkpoints WHERE id IN (
           SELECT id FROM session_checkpoints WHERE updated_at < ? ORDER BY updated_at, id LIMIT ?)`,
      )
      .run(cutoff, limit).changes;
  }

  /**
   * Interactive sessions still open (not ended, no parent) updated at or after `since`, newest first,
   * each with its newest checkpoint's time and prompt total: the candidates for a periodic checkpoint.
   */
  activeSessions(
    since: number,
    limit: number,
  ): Array<{ id: string; updatedAt: number; startedAt: number; lastAt: number | null; lastTotal: number }> {
    return this.sql
      .get(
        `SELECT s.id AS id, s.updated_at AS updatedAt, s.started_at AS startedAt,
           (SELECT MAX(c.updated_at) FROM session_checkpoints c WHERE c.session_key = s.id) AS lastAt,
           COALESCE((SELECT MAX(c.prompt_total) FROM session_checkpoints c WHERE c.session_key = s.id), 0) AS lastTotal
         FROM sessions s
         WHERE s.updated_at >= ? AND s.ended_at IS NULL AND s.parent_id IS NULL AND s.kind = 'interactive'
         ORDER BY s.updated_at DESC LIMIT ?`,
      )
      .all(since, limit) as Array<{
      id: string;
      updatedAt: number;
      startedAt: number;
      lastAt: number | null;
      lastTotal: number;
    }>;
  }

  count(): number {
    return (this.sql.get("SELECT COUNT(*) AS n FROM session_checkpoints").get() as { n: number }).n;
  }
}

function guarded(input: CheckpointInput): unknown[] {
  return [
    guardText(input.sessionKey),
    input.agent,
    input.projectKey,
    guardOptional(input.cwd),
    input.trigger,
    guardText(input.digest),
    input.promptCount,
    input.promptTotal,
    JSON.stringify(guardDeep(input.memoryQueries)),
    JSON.stringify(guardDeep(input.recentRemembers)),
    JSON.stringify(guardDeep(input.state)),
  ];
}

function record(row: Row): CheckpointRecord {
  return {
    id: row.id,
    sessionKey: row.session_key,
    agent: row.agent,
    projectKey: row.project_key,
    cwd: row.cwd,
    trigger: row.trigger as CheckpointTrigger,
    digest: row.digest,
    promptCount: row.prompt_count,
    promptTotal: row.prompt_total,
    memoryQueries: JSON.parse(row.memory_queries) as string[],
    recentRemembers: JSON.parse(row.recent_remembers) as string[],
    state: JSON.parse(row.state) as CheckpointState,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
