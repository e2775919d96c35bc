import type { Database } from "better-sqlite3";
import { guardDeep, guardOptional, guardText } from "../../redact/guard.js";
import { Statements } from "../statements.js";
import type { Stage1Output } from "../types/stage1Output.js";

interface Row {
  session_id: string;
  project_key: string | null;
  cwd: string | null;
  agent: string | null;
  source_updated_at: number;
  item_from: number | null;
  item_to: number | null;
  raw_memory: string;
  rollout_summary: string;
  rollout_slug: string | null;
  facts: string;
  entities: string;
  generator: string;
  generated_at: number;
  usage_count: number;
  last_usage: number | null;
  selected_for_phase2: number;
  selected_for_phase2_source_updated_at: number | null;
}

export type Stage1Write = Omit<
  Stage1Output,
  "usageCount" | "lastUsage" | "selectedForPhase2" | "selectedForPhase2SourceUpdatedAt"
>;

export interface SelectionEntry {
  sessionId: string;
  sourceUpdatedAt: number;
}

/** SQL for stage-1 outputs and the phase-2 selection baseline (seed 000). */
export class Stage1Repository {
  private readonly sql: Statements;

  constructor(db: Database) {
    this.sql = new Statements(db);
  }

  /**
   * Inserts or refreshes a session's output. Usage counters and the previous phase-2 selection baseline
   * are left untouched, so the next phase 2 can tell a refreshed session (`added`) from a retained one.
   */
  upsert(output: Stage1Write): void {
    this.sql
      .get(
        `INSERT INTO stage1_outputs (session_id, project_key, cwd, agent, source_updated_at, item_from, item_to, raw_memory,
           rollout_summary, rollout_slug, facts, entities, facts_ingested_at, generator, generated_at)
         VALUES (@sessionId, @projectKey, @cwd, @agent, @sourceUpdatedAt, @itemFrom, @itemTo, @rawMemory, @rolloutSummary,
           @rolloutSlug, @facts, @entities, NULL, @generator, @generatedAt)
         ON CONFLICT(session_id) DO UPDATE SET project_key = excluded.project_key, cwd = excluded.cwd, agent = excluded.agent,
           source_updated_at = excluded.source_updated_at, item_from = excluded.item_from, item_to = excluded.item_to,
           raw_memory = excluded.raw_memory, rollout_summary = excluded.rollout_summary, rollout_slug = excluded.rollout_slug,
           facts = excluded.facts, entities = excluded.entities, facts_ingested_at = NULL, generator = excluded.generator,
           generated_at = excluded.generated_at`,
      )
      .run({
        ...output,
        rawMemory: guardText(output.rawMemory),
        rolloutSummary: guardText(output.rolloutSummary),
        rolloutSlug: guardOptional(output.rolloutSlug),
        facts: JSON.stringify(guardDeep(output.facts)),
        entities: JSON.stringify(guardDeep(output.entities)),
      });
  }

  get(sessionId: string): Stage1Output | undefined {
    const row = this.sql.get("SELECT * FROM stage1_outputs WHERE session_id = ?").get(sessionId) as Row | undefined;
    return row ? toOutput(row) : undefined;
  }

  delete(sessionId: string): boolean {
    return this.sql.get("DELETE FROM stage1_outputs WHERE session_id = ?").run(sessionId).changes === 1;
  }

  /** Deletes the outputs of these sessions and every phase-2 selection record of them. */
  deleteForSessions(sessionIds: readonly string[]): number {
    const json = JSON.stringify(sessionIds);
    this.sql.get("DELETE FROM phase2_selection WHERE session_id IN (SELECT value FROM json_each(?))").run(json);
    return this.sql.get("DELETE FROM stage1_outputs WHERE session_id IN (SELECT value FROM json_each(?))").run(json)
      .changes;
  }

  /** Forgets a workspace's last selection (its files are being deleted). */
  clearSelection(workspace: string | "*"): void {
    if (workspace === "*") this.sql.get("DELETE FROM phase2_selection").run();
    else this.sql.get("DELETE FROM phase2_selection WHERE workspace = ?").run(workspace);
  }

  count(): number {
    return (this.sql.get("SELECT count(*) AS n FROM stage1_outputs").get() as { n: number }).n;
  }

  /**
   * Facts of the stored outputs under `confidence`: those pipeline.minFactConfidenceForWrite kept out
   * of the memory store. At most 20 facts per session, so the count reads little.
   */
  factsBelow(confidence: number): number {
    const row = this.sql
      .get(
        `SELECT count(*) AS n FROM stage1_outputs, json_each(stage1_outputs.facts) AS fact
         WHERE json_extract(fact.value, '$.confidence') < ?`,
      )
      .get(confidence) as { n: number };
    return row.n;
  }

  /** Project keys that have outputs (null stands for sessions without a project). */
  projectKeys(): Array<string | null> {
    const rows = this.sql.get("SELECT DISTINCT project_key FROM stage1_outputs").all() as Array<{
      project_key: string | null;
    }>;
    return rows.map((row) => row.project_key);
  }

  /**
   * Phase-2 inputs of one workspace (a project key, or every project for the global workspace): outputs
   * used within `maxUnusedDays`, or never used but generated within it; ranked by usage count, then by
   * the most recent of last use and generation; the top `limit`.
   */
  selectForPhase2(options: { projectKey: string | null | "*"; since: number; limit: number }): Stage1Output[] {
    const rows = this.sql
      .get(
        `SELECT * FROM stage1_outputs
         WHERE (@all = 1 OR project_key IS @project) AND coalesce(last_usage, generated_at) >= @since
         ORDER BY usage_count DESC, coalesce(last_usage, generated_at) DESC, session_id
         LIMIT @limit`,
      )
      .all({
        all: options.projectKey === "*" ? 1 : 0,
        project: options.projectKey === "*" ? null : options.projectKey,
        since: options.since,
        limit: options.limit,
      }) as Row[];
    return rows.map(toOutput);
  }

  all(): Stage1Output[] {
    return (this.sql.get("SELECT * FROM stage1_outputs").all() as Row[]).map(toOutput);
  }

  listBySessions(sessionIds: readonly string[]): Stage1Output[] {
    const rows = this.sql
      .get("SELECT * FROM stage1_outputs WHERE session_id IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(sessionIds)) as Row[];
    return rows.map(toOutput);
  }

  /** The last successful phase-2 selection of a workspace. */
  /** Workspaces that hold a phase-2 selection (each was consolidated at least once). */
  selectionWorkspaces(): string[] {
    return (this.sql.get("SELECT DISTINCT workspace FROM phase2_selection").all() as Array<{ workspace: string }>).map(
      (row) => row.workspace,
    );
  }

  /**
   * The workspaces what these sessions taught can stand in: those whose last selection holds one, and
   * the projects of their sessions and outputs. Call before erasing them.
   */
  workspacesOf(sessionIds: readonly string[]): string[] {
    const ids = JSON.stringify(sessionIds);
    const rows = this.sql
      .get(
        `SELECT workspace AS key FROM phase2_selection WHERE session_id IN (SELECT value FROM json_each(@ids))
         UNION SELECT project_key FROM stage1_outputs
           WHERE project_key IS NOT NULL AND session_id IN (SELECT value FROM json_each(@ids))
         UNION SELECT project_key FROM sessions WHERE project_key IS NOT NULL AND id IN (SELECT value FROM json_each(@ids))`,
      )
      .all({ ids }) as Array<{ key: string }>;
    return rows.map((row) => row.key);
  }

  /** The projects (null: none) of the outputs whose text holds `text` in any letter case. */
  projectsMentioning(text: string): Array<string | null> {
    const rows = this.sql
      .get(
        `SELECT DISTINCT project_key FROM stage1_outputs WHERE instr(lower(raw_memory || ' ' || rollout_summary || ' ' ||
           facts || ' ' || entities || ' ' || coalesce(rollout_slug, '') || ' ' || coalesce(cwd, '')), lower(?)) > 0`,
      )
      .all(text) as Array<{ project_key: string | null }>;
    return rows.map((row) => row.project_key);
  }

  /** Whether an output was generated after `time` (phase 1 wrote it since then). */
  generatedSince(time: number): boolean {
    return this.sql.get("SELECT 1 FROM stage1_outputs WHERE generated_at > ? LIMIT 1").get(time) !== undefined;
  }

  /** The newest `source_updated_at` of any output, 0 when there is none: phase 2's input watermark. */
  newestSourceUpdate(): number {
    const row = this.sql.get("SELECT max(source_updated_at) AS m FROM stage1_outputs").get() as { m: number | null };
    return row.m ?? 0;
  }

  previousSelection(workspace: string): SelectionEntry[] {
    const rows = this.sql
      .get("SELECT session_id, source_updated_at FROM phase2_selection WHERE workspace = ?")
      .all(workspace) as Array<{ session_id: string; source_updated_at: number }>;
    return rows.map((row) => ({ sessionId: row.session_id, sourceUpdatedAt: row.source_updated_at }));
  }

  /**
   * Records exactly the snapshots a successful phase 2 consumed. Project workspaces also mirror the
   * selection into the seed's `selected_for_phase2` columns. Call inside the success transaction.
   */
  markSelected(workspace: string, selection: readonly SelectionEntry[], mirror?: { projectKey: string | null }): void {
    this.sql.get("DELETE FROM phase2_selection WHERE workspace = ?").run(workspace);
    const insert = this.sql.get(
      "INSERT INTO phase2_selection (workspace, session_id, source_updated_at) VALUES (?, ?, ?)",
    );
    for (const entry of selection) insert.run(workspace, entry.sessionId, entry.sourceUpdatedAt);
    if (!mirror) return;
    this.sql
      .get(
        `UPDATE stage1_outputs SET selected_for_phase2 = 0, selected_for_phase2_source_updated_at = NULL
         WHERE project_key IS ? AND selected_for_phase2 = 1`,
      )
      .run(mirror.projectKey);
    const mark = this.sql.get(
      "UPDATE stage1_outputs SET selected_for_phase2 = 1, selected_for_phase2_source_updated_at = ? WHERE session_id = ?",
    );
    for (const entry of selection) mark.run(entry.sourceUpdatedAt, entry.sessionId);
  }

  /** A citation or recall hit: the outputs count as used now. */
  recordUsage(sessionIds: readonly string[], at: number): number {
    return this.sql
      .get(
        `UPDATE stage1_outputs SET usage_count = usage_count + 1, last_usage = max(coalesce(last_usage, 0), ?)
         WHERE session_id IN (SELECT value FROM json_each(?))`,
      )
      .run(at, JSON.stringify([...new Set(sessionIds)])).changes;
  }

  /** Outputs whose facts have not reached the memory store yet. */
  pendingFacts(limit: number): Stage1Output[] {
    const rows = this.sql
      .get("SELECT * FROM stage1_outputs WHERE facts_ingested_at IS NULL ORDER BY generated_at LIMIT ?")
      .all(limit) as Row[];
    return rows.map(toOutput);
  }

  markFactsIngested(sessionId: string, generatedAt: number, at: number): void {
    this.sql
      .get("UPDATE stage1_outputs SET facts_ingested_at = ? WHERE session_id = ? AND generated_at = ?")
      .run(at, sessionId, generatedAt);
  }
}

function toOutput(row: Row): Stage1Output {
  return {
    sessionId: row.session_id,
    projectKey: row.project_key,
    cwd: row.cwd,
    agent: row.agent,
    sourceUpdatedAt: row.source_updated_at,
    itemFrom: row.item_from,
    itemTo: row.item_to,
    rawMemory: row.raw_memory,
    rolloutSummary: row.rollout_summary,
    rolloutSlug: row.rollout_slug,
    facts: JSON.parse(row.facts) as Stage1Output["facts"],
    entities: JSON.parse(row.entities) as Stage1Output["entities"],
    generator: row.generator,
    generatedAt: row.generated_at,
    usageCount: row.usage_count,
    lastUsage: row.last_usage,
    selectedForPhase2: row.selected_for_phase2 === 1,
    selectedForPhase2SourceUpdatedAt: row.selected_for_phase2_source_updated_at,
  };
}
