import type { Database } from "better-sqlite3";
import { guardDeep, guardText } from "../../redact/guard.js";
import { type Clock, systemClock } from "../../util/clock.js";
import { cached } from "../statements.js";
import { takeStoreFault, withWriteTx } from "../tx.js";
import { backoffDelay } from "./backoff.js";
import { localProbe, newLeaseToken, type OwnerProbe, ownerIsDead } from "./leaseOwner.js";
import type { Enqueued, EnqueueRequest, FailOutcome, ForeignLeases, Job, JobStatus, Lease } from "./types.js";

export interface JobQueueOptions {
  clock?: Clock;
  random?: () => number;
  leaseMs?: number;
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** This host and process, and how to tell whether another process still runs (tests inject one). */
  owner?: OwnerProbe;
}

interface JobRow {
  id: number;
  kind: string;
  key: string;
  status: JobStatus;
  payload: string | null;
  attempts: number;
  max_attempts: number;
  run_after: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  input_watermark: number;
  claimed_watermark: number | null;
  last_error: string | null;
  result: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  started_at: number | null;
}

/**
 * The one leased job queue for all background work (phase 1, phase 2, ingest, hints, maintenance).
 * Claims happen inside an IMMEDIATE transaction, so two processes never hold the same job; a lease
 * that is not heartbeated expires and the job can be taken over.
 *
 * Attempts: a claim counts one, but only `start` makes it stick. A worker may claim ahead of what it
 * works on (phase 1 claims up to 64 sessions and runs a few at a time); when its holder stops (a
 * crash, an OOM kill, a lease run out), the jobs it had started keep the attempt, so a job that keeps
 * killing its holder still ends dead, and the ones it had not started go back as they were.
 */
export class JobQueue {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly owner: OwnerProbe;
  /** Leases this queue claimed and has not yet given back, by token: released together if the process fails. */
  private readonly held = new Map<string, Lease>();

  constructor(
    private readonly db: Database,
    options: JobQueueOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.leaseMs = options.leaseMs ?? 300_000;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.backoffBaseMs = options.backoffBaseMs ?? 30_000;
    this.backoffMaxMs = options.backoffMaxMs ?? 21_600_000;
    this.owner = options.owner ?? localProbe;
  }

  /**
   * Adds a job or refreshes the one with the same (kind, key). A newer watermark resets the retry
   * budget and makes a finished, failed or dead job runnable again.
   */
  enqueue(request: EnqueueRequest): Enqueued {
    const now = this.clock();
    return withWriteTx(this.db, () => this.enqueueIn(request, now));
  }

  /**
   * Enqueues every request in one write transaction, each as `enqueue` would (the same dedupe and
   * reopening): a batch of memories queues its jobs with one commit, not one each.
   */
  enqueueMany(requests: readonly EnqueueRequest[]): Enqueued[] {
    if (requests.length === 0) return [];
    const now = this.clock();
    return withWriteTx(this.db, () => requests.map((request) => this.enqueueIn(request, now)));
  }

  /** One enqueue inside the caller's write transaction. */
  private enqueueIn(request: EnqueueRequest, now: number): Enqueued {
    const watermark = request.watermark ?? 0;
    const payload = request.payload === undefined ? null : JSON.stringify(guardDeep(request.payload));
    const existing = this.row(request.kind, request.key);
    if (!existing) {
      const info = cached(
        this.db,
        `INSERT INTO jobs (kind, key, status, payload, max_attempts, run_after, input_watermark, created_at, updated_at)
           VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
      ).run(
        request.kind,
        request.key,
        payload,
        request.maxAttempts ?? this.maxAttempts,
        request.runAfter ?? now,
        watermark,
        now,
        now,
      );
      return { id: Number(info.lastInsertRowid), created: true, reopened: false };
    }
    const newer = watermark > existing.input_watermark;
    if (!newer && !request.force) return { id: existing.id, created: false, reopened: false };
    if (existing.status === "running") {
      // The holder keeps its lease; succeed/fail see the newer watermark and re-queue the job.
      this.db
        .prepare("UPDATE jobs SET input_watermark = max(input_watermark, ?), attempts = 0, updated_at = ? WHERE id = ?")
        .run(watermark, now, existing.id);
      return { id: existing.id, created: false, reopened: false };
    }
    this.db
      .prepare(
        `UPDATE jobs SET input_watermark = max(input_watermark, ?), attempts = 0, status = 'pending', run_after = ?,
           payload = coalesce(?, payload), last_error = NULL, finished_at = NULL, updated_at = ? WHERE id = ?`,
      )
      .run(watermark, request.runAfter ?? now, payload, now, existing.id);
    return { id: existing.id, created: false, reopened: true };
  }

  /**
   * Claims up to `limit` runnable jobs of one kind, never letting more than `runningCap` live leases of
   * that kind exist at once across all processes. Expired leases are taken over, and so are leases whose
   * holder provably stopped (it ran on this host and its process is gone); a job whose attempts are used
   * up by crashed holders goes dead instead of being run again. A taken-over job its holder never
   * started spends no attempt: the new claim replaces the old one's.
   */
  claim(options: { kind: string; limit?: number; runningCap?: number; leaseMs?: number; keys?: string[] }): Lease[] {
    const now = this.clock();
    const leaseMs = options.leaseMs ?? this.leaseMs;
    return withWriteTx(this.db, () => {
      const live = cached(
        this.db,
        "SELECT lease_owner AS owner FROM jobs WHERE kind = ? AND status = 'running' AND lease_expires_at > ?",
      ).all(options.kind, now) as Array<{ owner: string | null }>;
      const stopped = [...new Set(live.map((row) => row.owner).filter((owner) => ownerIsDead(owner, this.owner)))];
      const running = live.filter((row) => !stopped.includes(row.owner)).length;
      const room = Math.min(options.limit ?? 1, (options.runningCap ?? Number.MAX_SAFE_INTEGER) - running);
      if (room <= 0) return [];
      const keyFilter = options.keys ? `AND key IN (SELECT value FROM json_each(?))` : "";
      const params: unknown[] = [options.kind, now, now, JSON.stringify(stopped)];
      if (options.keys) params.push(JSON.stringify(options.keys));
      const candidates = cached(
        this.db,
        `SELECT * FROM jobs WHERE kind = ? AND (
             (status IN ('pending', 'failed') AND run_after <= ?) OR (status = 'running' AND lease_expires_at <= ?)
             OR (status = 'running' AND lease_owner IN (SELECT value FROM json_each(?)))
           ) ${keyFilter} ORDER BY run_after, id LIMIT ?`,
      ).all(...params, room * 2 + 8) as JobRow[];
      const leases: Lease[] = [];
      for (const row of candidates) {
        if (leases.length >= room) break;
        const takenOver = row.status === "running";
        const unstarted = takenOver && row.started_at === null;
        if (takenOver && !unstarted && row.attempts >= row.max_attempts) {
          this.finish(row.id, "dead", {
            error: row.last_error ?? "lease expired too many times (worker crashed?)",
            now,
          });
          continue;
        }
        const token = newLeaseToken(this.owner);
        const attempts = unstarted ? Math.max(row.attempts, 1) : row.attempts + 1;
        cached(
          this.db,
          `UPDATE jobs SET status = 'running', lease_owner = ?, lease_expires_at = ?, attempts = ?, started_at = NULL,
               claimed_watermark = input_watermark, updated_at = ? WHERE id = ?`,
        ).run(token, now + leaseMs, attempts, now, row.id);
        leases.push({
          id: row.id,
          kind: row.kind,
          key: row.key,
          token,
          attempts,
          payload: parseJson(row.payload),
          inputWatermark: row.input_watermark,
        });
      }
      return leases;
    }).map((lease) => {
      // Only once the claim committed: a claim that rolled back holds nothing.
      this.held.set(lease.token, lease);
      return lease;
    });
  }

  /**
   * Marks the work of held jobs begun: from now on their attempt is spent even if the holder dies.
   * Call it when the worker starts on a job (reads it, builds its prompt, calls the model), not when
   * it claims it. Returns how many leases were still held (a lost one is not marked).
   */
  start(...leases: Lease[]): number {
    const now = this.clock();
    const mark = cached(
      this.db,
      "UPDATE jobs SET started_at = ?, updated_at = ? WHERE id = ? AND lease_owner = ? AND status = 'running'",
    );
    return withWriteTx(this.db, () =>
      leases.reduce((marked, lease) => marked + mark.run(now, now, lease.id, lease.token).changes, 0),
    );
  }

  /**
   * Stops tracking a lease that is being given back. Inside a caller's transaction the write may still
   * roll back (a full disk), so the lease stays tracked; releasing it later is a no-op if it committed.
   */
  private forget(lease: Lease): void {
    if (!this.db.inTransaction) this.held.delete(lease.token);
    else if (this.held.size > 1000) this.pruneHeld();
  }

  private pruneHeld(): void {
    const owned = this.db.prepare("SELECT 1 FROM jobs WHERE id = ? AND lease_owner = ? AND status = 'running'");
    for (const [token, lease] of this.held) if (!owned.get(lease.id, token)) this.held.delete(token);
  }

  /** Extends a held lease. False means the lease was lost (expired and taken over): stop working on it. */
  heartbeat(lease: Lease, leaseMs = this.leaseMs): boolean {
    const now = this.clock();
    const info = this.db
      .prepare(
        "UPDATE jobs SET lease_expires_at = ?, updated_at = ? WHERE id = ? AND lease_owner = ? AND status = 'running'",
      )
      .run(now + leaseMs, now, lease.id, lease.token);
    if (info.changes !== 1) this.held.delete(lease.token);
    return info.changes === 1;
  }

  /**
   * Completes a held job. If newer input arrived while it ran, the job goes back to pending with a
   * fresh retry budget so the newer input is processed too. False when the lease was lost.
   */
  succeed(lease: Lease, options: { status?: "succeeded" | "succeeded_no_output"; result?: unknown } = {}): boolean {
    const now = this.clock();
    this.forget(lease);
    return withWriteTx(this.db, () => {
      const row = this.ownedRow(lease);
      if (!row) return false;
      const result = options.result === undefined ? null : JSON.stringify(guardDeep(options.result));
      if (row.input_watermark > (row.claimed_watermark ?? 0)) {
        this.db
          .prepare(
            `UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?, lease_owner = NULL, lease_expires_at = NULL,
               result = ?, last_error = NULL, updated_at = ? WHERE id = ?`,
          )
          .run(now, result, now, row.id);
        return true;
      }
      this.finish(row.id, options.status ?? "succeeded", { result, now });
      return true;
    });
  }

  /**
   * Records a failure: retry later with backoff, or dead once attempts are used up. When the job's last
   * write failed because of the store itself (full disk, damaged or read-only store), that error is
   * thrown instead: the job did not fail, the store did, so nothing is recorded and the lease stays
   * held for `releaseHeld` to give back without spending an attempt.
   */
  fail(lease: Lease, error: string, options: { retryable?: boolean; retryAfterMs?: number } = {}): FailOutcome {
    const fault = takeStoreFault(this.db);
    if (fault !== undefined) throw fault;
    const now = this.clock();
    this.forget(lease);
    return withWriteTx(this.db, () => {
      const row = this.ownedRow(lease);
      if (!row) return "lost";
      // An error can quote what failed to parse: a model's answer, a line of a transcript.
      const message = guardText(error.slice(0, 2000));
      if (row.input_watermark > (row.claimed_watermark ?? 0)) {
        this.db
          .prepare(
            `UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?, lease_owner = NULL, lease_expires_at = NULL,
               last_error = ?, updated_at = ? WHERE id = ?`,
          )
          .run(now, message, now, row.id);
        return "retry";
      }
      if (options.retryable === false || row.attempts >= row.max_attempts) {
        this.finish(row.id, "dead", { error: message, now });
        return "dead";
      }
      const delay = backoffDelay({
        attempt: row.attempts,
        baseMs: this.backoffBaseMs,
        maxMs: this.backoffMaxMs,
        random: this.random,
        ...(options.retryAfterMs === undefined ? {} : { retryAfterMs: options.retryAfterMs }),
      });
      this.db
        .prepare(
          `UPDATE jobs SET status = 'failed', run_after = ?, lease_owner = NULL, lease_expires_at = NULL, last_error = ?,
             updated_at = ? WHERE id = ?`,
        )
        .run(now + delay, message, now, row.id);
      return "retry";
    });
  }

  /** Gives a held job back untouched (shutdown, or the work turned out not to be due): the attempt is not counted. */
  release(lease: Lease, runAfter?: number): boolean {
    const now = this.clock();
    this.forget(lease);
    const info = this.db
      .prepare(
        `UPDATE jobs SET status = 'pending', attempts = max(attempts - 1, 0), run_after = ?, lease_owner = NULL,
           lease_expires_at = NULL, updated_at = ? WHERE id = ? AND lease_owner = ? AND status = 'running'`,
      )
      .run(runAfter ?? now, now, lease.id, lease.token);
    return info.changes === 1;
  }

  /** All jobs, the dead ones, and the running ones whose lease ran out (the maintenance worker's queue health). */
  health(): { jobs: number; dead: number; stale: number } {
    return cached(
      this.db,
      `SELECT count(*) AS jobs, coalesce(sum(status = 'dead'), 0) AS dead,
         coalesce(sum(status = 'running' AND lease_expires_at <= ?), 0) AS stale FROM jobs`,
    ).get(this.clock()) as { jobs: number; dead: number; stale: number };
  }

  /**
   * Puts every running job whose lease ran out back to pending (the maintenance worker's repair of
   * stale leases): a job its holder had started keeps the attempt it spent, one it never started gets
   * it back, as a takeover by `claim` would do. Returns how many.
   */
  releaseExpired(): number {
    const now = this.clock();
    return withWriteTx(this.db, () => {
      const info = this.db
        .prepare(
          `UPDATE jobs SET status = 'pending', attempts = CASE WHEN started_at IS NULL THEN max(attempts - 1, 0) ELSE attempts END,
             run_after = ?, lease_owner = NULL, lease_expires_at = NULL, started_at = NULL, updated_at = ?
           WHERE status = 'running' AND lease_expires_at <= ?`,
        )
        .run(now, now, now);
      return info.changes;
    });
  }

  /**
   * Gives back every lease this queue still holds (a command failed or was interrupted): the jobs go
   * back to pending at once, their attempts not spent, instead of waiting for the leases to expire.
   * Best-effort per lease, since the store may be the reason the command failed. Returns how many.
   */
  releaseHeld(): number {
    let released = 0;
    for (const lease of [...this.held.values()]) {
      try {
        if (this.release(lease)) released += 1;
      } catch {
        // The lease expires on its own; nothing else can be done with a store that refuses writes.
      }
    }
    return released;
  }

  /**
   * Gives back the leases of one kind whose holder provably stopped (see ownerIsDead), so that their jobs
   * are due again now rather than when the leases run out. The crashed attempt stays counted for a job
   * the holder had started (one that keeps killing its holder must still end dead); a job it had only
   * claimed goes back with its attempt refunded. Returns how many were reclaimed.
   */
  reclaimStopped(kind: string): number {
    const now = this.clock();
    return withWriteTx(this.db, () => {
      const rows = this.db
        .prepare(
          `SELECT id, lease_owner AS owner, attempts, max_attempts AS max, last_error AS error, started_at AS started
           FROM jobs WHERE kind = ? AND status = 'running' AND lease_expires_at > ?`,
        )
        .all(kind, now) as Array<{
        id: number;
        owner: string | null;
        attempts: number;
        max: number;
        error: string | null;
        started: number | null;
      }>;
      let reclaimed = 0;
      for (const row of rows) {
        if (!ownerIsDead(row.owner, this.owner)) continue;
        if (row.started === null) {
          this.db
            .prepare(
              `UPDATE jobs SET status = 'pending', attempts = max(attempts - 1, 0), run_after = min(run_after, ?),
                 lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?`,
            )
            .run(now, now, row.id);
        } else if (row.attempts >= row.max) {
          this.finish(row.id, "dead", {
            error: row.error ?? "its holder stopped too many times (worker crashed?)",
            now,
          });
        } else {
          this.db
            .prepare(
              "UPDATE jobs SET status = 'pending', run_after = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?",
            )
            .run(now, now, row.id);
        }
        reclaimed += 1;
      }
      return reclaimed;
    });
  }

  /**
   * Gives every dead job (its attempts used up, or refused for good) a fresh retry budget: pending
   * now, attempts 0. For a user who fixed the cause (a provider key, a crash) and wants the work done
   * without waiting for new input. Returns how many jobs of each kind were queued again.
   */
  retryDead(): Record<string, number> {
    const now = this.clock();
    return withWriteTx(this.db, () => {
      const rows = this.db
        .prepare("SELECT kind, count(*) AS n FROM jobs WHERE status = 'dead' GROUP BY kind ORDER BY kind")
        .all() as Array<{ kind: string; n: number }>;
      this.db
        .prepare(
          `UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?, last_error = NULL, finished_at = NULL,
             lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE status = 'dead'`,
        )
        .run(now, now);
      return Object.fromEntries(rows.map((row) => [row.kind, row.n]));
    });
  }

  /**
   * Gives these dead jobs a fresh retry budget, as `retryDead` does for all (the maintenance worker's
   * repair, which picks which). Returns how many were dead and are pending now.
   */
  retryDeadIds(ids: readonly number[]): number {
    if (ids.length === 0) return 0;
    const now = this.clock();
    return withWriteTx(
      this.db,
      () =>
        this.db
          .prepare(
            `UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?, last_error = NULL, finished_at = NULL,
             lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
           WHERE status = 'dead' AND id IN (SELECT value FROM json_each(?))`,
          )
          .run(now, now, JSON.stringify(ids)).changes,
    );
  }

  /**
   * Live leases of one kind held by other processes (or other queues of this one): how many, how many
   * of them belong to a process that provably stopped (the next claim takes those over), and when the
   * first of the rest runs out.
   */
  foreignLeases(kind: string): ForeignLeases {
    const now = this.clock();
    const rows = this.db
      .prepare(
        "SELECT lease_owner AS owner, lease_expires_at AS expires FROM jobs WHERE kind = ? AND status = 'running' AND lease_expires_at > ?",
      )
      .all(kind, now) as Array<{ owner: string | null; expires: number }>;
    const others = rows.filter((row) => row.owner === null || !this.held.has(row.owner));
    const stopped = others.filter((row) => ownerIsDead(row.owner, this.owner));
    const expiries = others.map((row) => row.expires);
    return {
      held: others.length,
      stopped: stopped.length,
      nextExpiry: expiries.length > 0 ? Math.min(...expiries) : null,
      lastExpiry: expiries.length > 0 ? Math.max(...expiries) : null,
    };
  }

  get(kind: string, key: string): Job | undefined {
    const row = this.row(kind, key);
    return row ? toJob(row) : undefined;
  }

  list(filter: { kind?: string; status?: JobStatus; limit?: number } = {}): Job[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM jobs WHERE (? IS NULL OR kind = ?) AND (? IS NULL OR status = ?) ORDER BY updated_at DESC LIMIT ?`,
      )
      .all(
        filter.kind ?? null,
        filter.kind ?? null,
        filter.status ?? null,
        filter.status ?? null,
        filter.limit ?? 1000,
      ) as JobRow[];
    return rows.map(toJob);
  }

  /** Counts per kind and status; a running job whose lease expired is reported as `stale`. */
  stats(): Record<string, Record<string, number>> {
    const now = this.clock();
    const rows = this.db
      .prepare(
        `SELECT kind, CASE WHEN status = 'running' AND lease_expires_at <= ? THEN 'stale' ELSE status END AS state,
           count(*) AS n FROM jobs GROUP BY kind, state`,
      )
      .all(now) as Array<{ kind: string; state: string; n: number }>;
    const stats: Record<string, Record<string, number>> = {};
    for (const row of rows) {
      stats[row.kind] ??= {};
      stats[row.kind]![row.state] = row.n;
    }
    return stats;
  }

  /** Deletes the jobs of one kind whose keys match (used when memory of a project is cleared). */
  remove(kind: string, keys: string[]): number {
    return this.db
      .prepare("DELETE FROM jobs WHERE kind = ? AND key IN (SELECT value FROM json_each(?))")
      .run(kind, JSON.stringify(keys)).changes;
  }

  private row(kind: string, key: string): JobRow | undefined {
    return cached(this.db, "SELECT * FROM jobs WHERE kind = ? AND key = ?").get(kind, key) as JobRow | undefined;
  }

  private ownedRow(lease: Lease): JobRow | undefined {
    return cached(this.db, "SELECT * FROM jobs WHERE id = ? AND lease_owner = ? AND status = 'running'").get(
      lease.id,
      lease.token,
    ) as JobRow | undefined;
  }

  private finish(
    id: number,
    status: JobStatus,
    options: { now: number; error?: string; result?: string | null },
  ): void {
    cached(
      this.db,
      `UPDATE jobs SET status = ?, lease_owner = NULL, lease_expires_at = NULL, last_error = ?,
         result = coalesce(?, result), finished_at = ?, updated_at = ? WHERE id = ?`,
    ).run(status, options.error ?? null, options.result ?? null, options.now, options.now, id);
  }
}

function parseJson(text: string | null): unknown {
  return text === null ? undefined : JSON.parse(text);
}

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    status: row.status,
    payload: parseJson(row.payload),
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: row.run_after,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    inputWatermark: row.input_watermark,
    claimedWatermark: row.claimed_watermark,
    lastError: row.last_error,
    result: parseJson(row.result),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
