import type { Database } from "better-sqlite3";
import type { EligibilityRepo, EligibilityWindow, PendingBounds, PendingBreakdown } from "../contracts/eligibility.js";
import { PHASE1_KIND } from "../queue/jobKinds.js";
import { Statements } from "../statements.js";
import { folderCondition, folderParams } from "./folderFilter.js";

export type { EligibilityWindow, PendingBounds, PendingBreakdown };

/**
 * The phase-1 claim rules as SQL (seeds 000 and 002): the idle and age windows and the kind filter are
 * part of the selection itself, so recent sessions never fill the scan limit and starve older ones.
 * Sessions held by a live lease, backing off after a failure, or dead at the same input are left out.
 */
export class EligibilityRepository implements EligibilityRepo {
  private readonly sql: Statements;

  constructor(db: Database) {
    this.sql = new Statements(db);
  }

  eligible(window: EligibilityWindow): Array<{ id: string; invalidatedAt: number }> {
    const rows = this.sql
      .get(
        `SELECT s.id, s.invalidated_at FROM sessions s
         LEFT JOIN jobs j ON j.kind = '${PHASE1_KIND}' AND j.key = s.id
         WHERE s.invalidated_at IS NOT NULL
           AND s.kind IN (SELECT value FROM json_each(@kinds))
           AND s.updated_at >= @oldest AND s.updated_at <= @newest
           AND (@ids IS NULL OR s.id IN (SELECT value FROM json_each(@ids))) AND ${folderCondition("s")}
           AND NOT coalesce(j.status = 'running' AND j.lease_expires_at > @now, 0)
           AND NOT coalesce(j.status = 'failed' AND j.run_after > @now AND j.input_watermark >= s.invalidated_at, 0)
           AND NOT coalesce(j.status = 'dead' AND j.input_watermark >= s.invalidated_at, 0)
         ORDER BY s.updated_at DESC, s.id
         LIMIT @limit`,
      )
      .all(this.params(window)) as Array<{ id: string; invalidated_at: number }>;
    return rows.map((row) => ({ id: row.id, invalidatedAt: row.invalidated_at }));
  }

  /** Why pending sessions are or are not being extracted: for the run summary and `cairn status`. */
  breakdown(window: EligibilityWindow): PendingBreakdown {
    const row = this.sql
      .get(
        `SELECT
           sum(kind_ok AND age_ok AND idle_ok AND NOT leased AND NOT backing AND NOT dead) AS eligible,
           sum(kind_ok AND NOT idle_ok) AS too_recent,
           sum(kind_ok AND NOT age_ok) AS too_old,
           sum(NOT kind_ok) AS kind_excluded,
           sum(kind_ok AND leased) AS leased,
           sum(kind_ok AND backing) AS backing,
           sum(kind_ok AND dead) AS dead
         FROM (
           SELECT s.kind IN (SELECT value FROM json_each(@kinds)) AS kind_ok,
             s.updated_at >= @oldest AS age_ok, s.updated_at <= @newest AS idle_ok,
             coalesce(j.status = 'running' AND j.lease_expires_at > @now, 0) AS leased,
             coalesce(j.status = 'failed' AND j.run_after > @now AND j.input_watermark >= s.invalidated_at, 0) AS backing,
             coalesce(j.status = 'dead' AND j.input_watermark >= s.invalidated_at, 0) AS dead
           FROM sessions s LEFT JOIN jobs j ON j.kind = '${PHASE1_KIND}' AND j.key = s.id
           WHERE s.invalidated_at IS NOT NULL AND (@ids IS NULL OR s.id IN (SELECT value FROM json_each(@ids)))
             AND ${folderCondition("s")}
         )`,
      )
      .get(this.params(window)) as Record<string, number | null>;
    return {
      eligible: row.eligible ?? 0,
      tooRecent: row.too_recent ?? 0,
      tooOld: row.too_old ?? 0,
      kindExcluded: row.kind_excluded ?? 0,
      leased: row.leased ?? 0,
      backingOff: row.backing ?? 0,
      dead: row.dead ?? 0,
    };
  }

  /** How long the sessions outside the idle and age windows have waited: for saying when and what includes them. */
  bounds(window: EligibilityWindow): PendingBounds {
    const row = this.sql
      .get(
        `SELECT min(CASE WHEN s.updated_at > @newest THEN s.updated_at END) AS too_recent,
           min(CASE WHEN s.updated_at < @oldest THEN s.updated_at END) AS too_old
         FROM sessions s
         WHERE s.invalidated_at IS NOT NULL AND s.kind IN (SELECT value FROM json_each(@kinds))
           AND (@ids IS NULL OR s.id IN (SELECT value FROM json_each(@ids))) AND ${folderCondition("s")}`,
      )
      .get(this.params(window)) as { too_recent: number | null; too_old: number | null };
    return { oldestTooRecent: row.too_recent, oldestTooOld: row.too_old };
  }

  private params(window: EligibilityWindow) {
    return {
      kinds: JSON.stringify(window.allowedKinds),
      oldest: window.oldest,
      newest: window.newest,
      now: window.now,
      limit: window.scanLimit,
      ids: window.sessionIds ? JSON.stringify(window.sessionIds) : null,
      ...folderParams(window.folder),
    };
  }
}
