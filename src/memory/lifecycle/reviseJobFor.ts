import { REVISE_KIND } from "../../store/queue/jobKinds.js";
import type { EnqueueRequest } from "../../store/queue/types.js";

/**
 * Memories revised together (one write transaction), and so the most one revise job holds: a job per
 * remembered batch, not per memory, keeps the jobs table O(batches) and a batch's queue writes to three
 * row updates (claim, start, done) whatever its size.
 */
export const REVISE_BATCH = 200;

/**
 * The job of stored memories: revise them after the raw write. Enqueued inside the write that stored
 * them. The key is the first memory's id (ids are never reused, so no two batches share a key); an
 * interrupted job is run again whole, which is safe because a revise is idempotent (a replaced memory
 * is no longer live, a flag already open is not raised again).
 */
export function reviseJobFor(ids: readonly number[]): EnqueueRequest & { payload: { memoryIds: number[] } } {
  if (ids.length === 0) throw new Error("a revise job needs at least one memory");
  return { kind: REVISE_KIND, key: String(ids[0]), payload: { memoryIds: [...ids] } };
}

/** The jobs of a written batch, `REVISE_BATCH` memories each, in the order they were written. */
export function reviseJobsFor(ids: readonly number[]): Array<ReturnType<typeof reviseJobFor>> {
  const jobs: Array<ReturnType<typeof reviseJobFor>> = [];
  for (let i = 0; i < ids.length; i += REVISE_BATCH) jobs.push(reviseJobFor(ids.slice(i, i + REVISE_BATCH)));
  return jobs;
}

/**
 * The memories a revise job names: `memoryIds`, or the one `memoryId` of a job queued before jobs
 * were per batch (a store upgraded with jobs still pending), or its key.
 */
export function memoryIdsOf(job: { key: string; payload: unknown }): number[] {
  const payload = job.payload as { memoryIds?: unknown; memoryId?: unknown } | null | undefined;
  const ids = payload?.memoryIds ?? [payload?.memoryId ?? Number(job.key)];
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === "number" && Number.isInteger(id)))
    throw new Error(`revise job ${job.key} names no memory`);
  return ids as number[];
}
