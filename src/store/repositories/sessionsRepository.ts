import type { Database } from "better-sqlite3";
import { EXCLUDED_MARK } from "../../project/exclusion.js";
import { guardOptional, guardText, stripUrlCredentials } from "../../redact/guard.js";
import type { SessionInfo } from "../../sources/types.js";
import type { FolderFilter } from "../contracts/eligibility.js";
import { Statements } from "../statements.js";
import type { SessionRecord } from "../types/sessionRecord.js";
import { folderCondition, folderParams } from "./folderFilter.js";

export type { SessionRecord };

/** What became of the sessions of one folder (`folderSessions`). */
export interface FolderSessions {
  total: number;
  /** Excluded by `memories.exclude`: kept as a row, never read. */
  excluded: number;
  /** With a stage-1 output, and how many of those the offline extractor wrote (no model). */
  extracted: number;
  extractedOffline: number;
  /**
   * Neither extracted nor pending yet, by their last update: still in use (after `idleBefore`), idle
   * (the next scan's idle sweep makes them pending) or past the age limit (before `oldest`).
   */
  active: number;
  idle: number;
  old: number;
  /** The oldest last update among the active ones, and among the old ones (epoch ms), or null. */
  oldestActive: number | null;
  oldestOld: number | null;
}

/** A folder a project's sessions ran in (`projectFolders`). */
export interface ProjectFolder {
  /** Null for sessions recorded without a folder. */
  cwd: string | null;
  sessions: number;
  /** The newest session update there (epoch ms). */
  lastSeen: number;
}

interface SessionRow {
  id: string;
  agent: string;
  kind: string;
  cwd: string | null;
  project_key: string | null;
  git_branch: string | null;
  git_commit: string | null;
  git_remote: string | null;
  title: string | null;
  parent_id: string | null;
  source_path: string | null;
  started_at: number;
  updated_at: number;
  ended_at: number | null;
  content_hash: string | null;
  invalidated_at: number | null;
  processed_until: number | null;
  created_at: number;
}

export interface SessionUpsert {
  info: SessionInfo;
  projectKey: string | null;
  sourcePath: string | null;
  contentHash?: string | null;
  now: number;
}

/** SQL for the `sessions` table, including the collection loop's invalidation marks (seed 001). */
export class SessionsRepository {
  private readonly sql: Statements;

  constructor(db: Database) {
    this.sql = new Statements(db);
  }

  upsert(entry: SessionUpsert): void {
    const { info } = entry;
    this.stmt(
      `INSERT INTO sessions (id, agent, kind, cwd, project_key, git_branch, git_commit, git_remote, title, parent_id,
         source_path, started_at, updated_at, content_hash, created_at)
       VALUES (@id, @agent, @kind, @cwd, @projectKey, @branch, @commit, @remote, @title, @parentId, @sourcePath,
         @startedAt, @updatedAt, @contentHash, @now)
       ON CONFLICT(id) DO UPDATE SET agent = excluded.agent, kind = excluded.kind, cwd = coalesce(excluded.cwd, cwd),
         project_key = coalesce(excluded.project_key, project_key), git_branch = coalesce(excluded.git_branch, git_branch),
         git_commit = coalesce(excluded.git_commit, git_commit), git_remote = coalesce(excluded.git_remote, git_remote),
         title = coalesce(excluded.title, title), parent_id = coalesce(excluded.parent_id, parent_id),
         source_path = coalesce(excluded.source_path, source_path), started_at = min(started_at, excluded.started_at),
         updated_at = max(updated_at, excluded.updated_at), content_hash = coalesce(excluded.content_hash, content_hash)`,
    ).run({
      id: info.id,
      agent: info.agent,
      kind: info.kind,
      cwd: guardOptional(info.cwd),
      projectKey: entry.projectKey,
      // A branch is named by whoever made it (`fix/rotate-ghp_...`): guarded like the title.
      branch: guardOptional(info.git?.branch ?? null),
      commit: info.git?.commit ?? null,
      remote: info.git?.remote ? guardText(stripUrlCredentials(info.git.remote)) : null,
      title: guardOptional(info.title ?? null),
      parentId: info.parentId ?? null,
      sourcePath: entry.sourcePath,
      startedAt: info.startedAt,
      updatedAt: info.updatedAt,
      contentHash: entry.contentHash ?? null,
      now: entry.now,
    });
  }

  get(id: string): SessionRecord | undefined {
    const row = this.stmt("SELECT * FROM sessions WHERE id = ?").get(id) as SessionRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  list(filter: { agent?: string; projectKey?: string; limit?: number } = {}): SessionRecord[] {
    const rows = this.stmt(
      `SELECT * FROM sessions WHERE (@agent IS NULL OR agent = @agent) AND (@project IS NULL OR project_key = @project)
       ORDER BY updated_at DESC LIMIT @limit`,
    ).all({
      agent: filter.agent ?? null,
      project: filter.projectKey ?? null,
      limit: filter.limit ?? -1,
    }) as SessionRow[];
    return rows.map(toRecord);
  }

  count(): number {
    return (this.stmt("SELECT count(*) AS n FROM sessions").get() as { n: number }).n;
  }

  setEnded(id: string, at: number): void {
    this.stmt("UPDATE sessions SET ended_at = ? WHERE id = ?").run(at, id);
  }

  /** Marks the session for processing up to `itemId`. Only ever moves the mark forward. */
  invalidate(id: string, itemId: number): void {
    this.stmt(
      "UPDATE sessions SET invalidated_at = ? WHERE id = ? AND (invalidated_at IS NULL OR invalidated_at < ?)",
    ).run(itemId, id, itemId);
  }

  /** Pending sessions, the longest-waiting first. */
  findInvalidated(limit: number): SessionRecord[] {
    const rows = this.stmt(
      "SELECT * FROM sessions WHERE invalidated_at IS NOT NULL ORDER BY invalidated_at ASC LIMIT ?",
    ).all(limit) as SessionRow[];
    return rows.map(toRecord);
  }

  /**
   * Compare-and-swap: clears the mark and records progress only if nobody invalidated the session again
   * while it was being processed. False means newer items arrived; the session stays pending.
   */
  markProcessed(id: string, processedUntil: number, expectedInvalidatedAt: number): boolean {
    return (
      this.stmt(
        "UPDATE sessions SET invalidated_at = NULL, processed_until = ? WHERE id = ? AND invalidated_at = ?",
      ).run(processedUntil, id, expectedInvalidatedAt).changes === 1
    );
  }

  /** Invalidates every session idle since `idleBefore` that has items beyond what was processed. */
  invalidateIdle(idleBefore: number): number {
    return this.stmt(
      `UPDATE sessions SET invalidated_at = m.max_id
       FROM (SELECT session_id, max(id) AS max_id FROM items GROUP BY session_id) AS m
       WHERE m.session_id = sessions.id AND sessions.updated_at <= ?
         AND m.max_id > coalesce(sessions.processed_until, 0)
         AND (sessions.invalidated_at IS NULL OR sessions.invalidated_at < m.max_id)`,
    ).run(idleBefore).changes;
  }

  /**
   * A recorded git remote names the project better than a bare path: sessions of the same cwd that were
   * keyed by their path (no remote recorded, checkout gone) join the remote's project.
   */
  adoptProjectKey(cwd: string, projectKey: string): number {
    const changed = this.stmt("UPDATE sessions SET project_key = ? WHERE cwd = ? AND project_key = ?").run(
      projectKey,
      cwd,
      `path:${cwd}`,
    ).changes;
    if (changed > 0) {
      this.stmt(
        "UPDATE stage1_outputs SET project_key = ? WHERE project_key = ? AND session_id IN (SELECT id FROM sessions WHERE cwd = ?)",
      ).run(projectKey, `path:${cwd}`, cwd);
    }
    return changed;
  }

  /** Ids of the sessions of one project (or of all sessions). */
  idsOfProject(projectKey: string | "*"): string[] {
    const rows = (
      projectKey === "*"
        ? this.stmt("SELECT id FROM sessions").all()
        : this.stmt("SELECT id FROM sessions WHERE project_key = ?").all(projectKey)
    ) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** Marks sessions as processed up to their newest item, so cleared memory is not re-extracted from old items. */
  markAllProcessed(ids: readonly string[]): void {
    this.stmt(
      `UPDATE sessions SET invalidated_at = NULL,
         processed_until = coalesce((SELECT max(id) FROM items WHERE items.session_id = sessions.id), processed_until)
       WHERE id IN (SELECT value FROM json_each(?))`,
    ).run(JSON.stringify(ids));
  }

  /** Counts of the sessions of one folder by what became of them; one indexed pass. */
  folderSessions(folder: FolderFilter, times: { idleBefore: number; oldest: number }): FolderSessions {
    const unmarked = "s.invalidated_at IS NULL AND o.session_id IS NULL AND s.content_hash IS NOT @excluded";
    const active = `(${unmarked} AND s.updated_at > @idleBefore)`;
    const old = `(${unmarked} AND s.updated_at < @oldest)`;
    const row = this.stmt(
      `SELECT count(*) AS total, sum(s.content_hash IS @excluded) AS excluded,
         sum(o.session_id IS NOT NULL) AS extracted, sum(o.generator = 'offline') AS offline,
         sum(${active}) AS active, sum(${old}) AS old,
         sum(${unmarked} AND s.updated_at <= @idleBefore AND s.updated_at >= @oldest) AS idle,
         min(CASE WHEN ${active} THEN s.updated_at END) AS oldest_active,
         min(CASE WHEN ${old} THEN s.updated_at END) AS oldest_old
       FROM sessions s LEFT JOIN stage1_outputs o ON o.session_id = s.id
       WHERE ${folderCondition("s")}`,
    ).get({ excluded: EXCLUDED_MARK, ...times, ...folderParams(folder) }) as Record<string, number | null>;
    return {
      total: row.total ?? 0,
      excluded: row.excluded ?? 0,
      extracted: row.extracted ?? 0,
      extractedOffline: row.offline ?? 0,
      active: row.active ?? 0,
      idle: row.idle ?? 0,
      old: row.old ?? 0,
      oldestActive: row.oldest_active ?? null,
      oldestOld: row.oldest_old ?? null,
    };
  }

  /** Distinct working directories per project key (for the workspace index). */
  cwdsByProject(): Map<string, string[]> {
    const rows = this.stmt(
      "SELECT DISTINCT project_key, cwd FROM sessions WHERE project_key IS NOT NULL AND cwd IS NOT NULL ORDER BY cwd",
    ).all() as Array<{ project_key: string; cwd: string }>;
    const map = new Map<string, string[]>();
    for (const row of rows) map.set(row.project_key, [...(map.get(row.project_key) ?? []), row.cwd]);
    return map;
  }

  /**
   * Per project key, its sessions (excluded ones left out) grouped by folder, the folder seen last
   * first; a null folder counts sessions recorded without one. What the memory browser's project list
   * names a project by when no workspace names it.
   */
  projectFolders(): Map<string, ProjectFolder[]> {
    const rows = this.stmt(
      `SELECT project_key, cwd, count(*) AS sessions, max(updated_at) AS last_seen FROM sessions
       WHERE project_key IS NOT NULL AND (content_hash IS NULL OR content_hash <> ?)
       GROUP BY project_key, cwd ORDER BY last_seen DESC, cwd`,
    ).all(EXCLUDED_MARK) as Array<{ project_key: string; cwd: string | null; sessions: number; last_seen: number }>;
    const map = new Map<string, ProjectFolder[]>();
    for (const row of rows) {
      const folder = { cwd: row.cwd, sessions: row.sessions, lastSeen: row.last_seen };
      const folders = map.get(row.project_key);
      if (folders) folders.push(folder);
      else map.set(row.project_key, [folder]);
    }
    return map;
  }

  /** The remote-based project key already known for a cwd, if any session recorded one. */
  knownRemoteKey(cwd: string): string | undefined {
    // A range rather than LIKE, so that the (cwd, project_key) index answers it ('git;' follows 'git:').
    const row = this.stmt(
      "SELECT project_key FROM sessions WHERE cwd = ? AND project_key >= 'git:' AND project_key < 'git;' LIMIT 1",
    ).get(cwd) as { project_key: string } | undefined;
    return row?.project_key;
  }

  /**
   * Excluded by `memories.exclude`: the row stays (so a scan knows the session and `cairn sessions`
   * counts it) with the exclusion mark for a content hash, and nothing is pending for phase 1. Its
   * title goes: a title is the session's own words (pi, Gemini and OpenCode name a session after its
   * first request), not metadata.
   */
  markExcluded(id: string): void {
    this.stmt("UPDATE sessions SET content_hash = ?, invalidated_at = NULL, title = NULL WHERE id = ?").run(
      EXCLUDED_MARK,
      id,
    );
  }

  /** Titles kept by versions that stored excluded sessions with them; returns how many went. */
  dropExcludedTitles(): number {
    return this.stmt("UPDATE sessions SET title = NULL WHERE content_hash = ? AND title IS NOT NULL").run(EXCLUDED_MARK)
      .changes;
  }

  /** No longer excluded: the mark is cleared so the next whole read of its file stores the items again. */
  clearExcluded(ids: readonly string[]): void {
    this.stmt(
      "UPDATE sessions SET content_hash = NULL WHERE content_hash = ? AND id IN (SELECT value FROM json_each(?))",
    ).run(EXCLUDED_MARK, JSON.stringify(ids));
  }

  /** Every session's cwd and project key, and whether it is marked excluded: what an exclusion sweep checks. */
  exclusionStates(): Array<{ id: string; cwd: string | null; projectKey: string | null; excluded: boolean }> {
    const rows = this.stmt("SELECT id, cwd, project_key, content_hash = ? AS excluded FROM sessions").all(
      EXCLUDED_MARK,
    ) as Array<{ id: string; cwd: string | null; project_key: string | null; excluded: number | null }>;
    return rows.map((row) => ({ id: row.id, cwd: row.cwd, projectKey: row.project_key, excluded: row.excluded === 1 }));
  }

  /**
   * Excluded sessions something was still learned from (a stage-1 output, a memory): what an exclusion
   * must erase. One index probe per excluded session.
   */
  excludedWithLearning(): string[] {
    const rows = this.stmt(
      `SELECT id FROM sessions s WHERE content_hash = ? AND (
         EXISTS (SELECT 1 FROM stage1_outputs o WHERE o.session_id = s.id)
         OR EXISTS (SELECT 1 FROM memories m WHERE m.session_id = s.id))`,
    ).all(EXCLUDED_MARK) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  countExcluded(): number {
    return (this.stmt("SELECT count(*) AS n FROM sessions WHERE content_hash = ?").get(EXCLUDED_MARK) as { n: number })
      .n;
  }

  delete(ids: string[]): number {
    return this.stmt("DELETE FROM sessions WHERE id IN (SELECT value FROM json_each(?))").run(JSON.stringify(ids))
      .changes;
  }

  private stmt(text: string) {
    return this.sql.get(text);
  }
}

function toRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    agent: row.agent as SessionRecord["agent"],
    kind: row.kind as SessionRecord["kind"],
    cwd: row.cwd,
    projectKey: row.project_key,
    gitBranch: row.git_branch,
    gitCommit: row.git_commit,
    gitRemote: row.git_remote,
    title: row.title,
    parentId: row.parent_id,
    sourcePath: row.source_path,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
    endedAt: row.ended_at,
    contentHash: row.content_hash,
    invalidatedAt: row.invalidated_at,
    processedUntil: row.processed_until,
    createdAt: row.created_at,
  };
}
