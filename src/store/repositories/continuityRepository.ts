import type { Database } from "better-sqlite3";
import { guardText } from "../../redact/guard.js";
import type { ContinuityRepo, SessionScore } from "../contracts/continuity.js";
import { cached } from "../statements.js";
import { withWriteTx } from "../tx.js";

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

interface ScoreRow {
  session_id: string;
  score: number;
  confidence: number;
  method: "model" | "evidence";
  injected: number;
  used: number;
  reasoning: string | null;
  scored_at: number;
}

export class ContinuityRepository implements ContinuityRepo {
  constructor(private readonly db: Database) {}

  recordInjection(sessionId: string, memoryIds: readonly number[], at: number): number {
    const insert = cached(
      this.db,
      "INSERT OR IGNORE INTO session_injections (session_id, memory_id, rank, injected_at) VALUES (?, ?, ?, ?)",
    );
    return withWriteTx(this.db, () =>
      memoryIds.reduce((added, id, rank) => added + insert.run(sessionId, id, rank, at).changes, 0),
    );
  }

  readyToScore(limit: number): string[] {
    const rows = cached(
      this.db,
      `SELECT i.session_id AS id FROM session_injections i
         WHERE NOT EXISTS (SELECT 1 FROM session_scores s WHERE s.session_id = i.session_id)
           AND (EXISTS (SELECT 1 FROM sessions x WHERE x.id = i.session_id AND x.ended_at IS NOT NULL)
                OR EXISTS (SELECT 1 FROM stage1_outputs o WHERE o.session_id = i.session_id))
         GROUP BY i.session_id ORDER BY min(i.injected_at) LIMIT ?`,
    ).all(limit) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  unscored(): number {
    return (
      cached(
        this.db,
        `SELECT count(DISTINCT session_id) AS n FROM session_injections i
           WHERE NOT EXISTS (SELECT 1 FROM session_scores s WHERE s.session_id = i.session_id)`,
      ).get() as { n: number }
    ).n;
  }

  injected(sessionId: string): Array<{ memoryId: number; rank: number }> {
    return cached(
      this.db,
      "SELECT memory_id AS memoryId, rank FROM session_injections WHERE session_id = ? ORDER BY rank",
    ).all(sessionId) as Array<{ memoryId: number; rank: number }>;
  }

  saveScore(score: SessionScore, relevance: ReadonlyMap<number, number>): void {
    const setRelevance = cached(
      this.db,
      "UPDATE session_injections SET relevance = ? WHERE session_id = ? AND memory_id = ?",
    );
    withWriteTx(this.db, () => {
      for (const [id, value] of relevance) setRelevance.run(clamp01(value), score.sessionId, id);
      cached(
        this.db,
        `INSERT INTO session_scores (session_id, score, confidence, method, injected, used, reasoning, scored_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(session_id) DO UPDATE SET score = excluded.score, confidence = excluded.confidence,
             method = excluded.method, injected = excluded.injected, used = excluded.used,
             reasoning = excluded.reasoning, scored_at = excluded.scored_at`,
      ).run(
        score.sessionId,
        clamp01(score.score),
        clamp01(score.confidence),
        score.method,
        score.injected,
        score.used,
        // A model's reasoning can quote the session.
        score.reasoning === null ? null : guardText(score.reasoning.slice(0, 2000)),
        score.scoredAt,
      );
    });
  }

  score(sessionId: string): SessionScore | undefined {
    const row = cached(this.db, "SELECT * FROM session_scores WHERE session_id = ?").get(sessionId) as
      | ScoreRow
      | undefined;
    if (!row) return undefined;
    return {
      sessionId: row.session_id,
      score: row.score,
      confidence: row.confidence,
      method: row.method,
      injected: row.injected,
      used: row.used,
      reasoning: row.reasoning,
      scoredAt: row.scored_at,
    };
  }

  relevanceOf(memoryIds: readonly number[]): Map<number, { mean: number; sessions: number }> {
    if (memoryIds.length === 0) return new Map();
    const rows = cached(
      this.db,
      `SELECT memory_id AS id, avg(relevance) AS mean, count(*) AS n FROM session_injections
         WHERE relevance IS NOT NULL AND memory_id IN (SELECT value FROM json_each(?)) GROUP BY memory_id`,
    ).all(JSON.stringify(memoryIds)) as Array<{ id: number; mean: number; n: number }>;
    return new Map(rows.map((row) => [row.id, { mean: row.mean, sessions: row.n }]));
  }
}
