export type JobStatus = "pending" | "running" | "succeeded" | "succeeded_no_output" | "failed" | "dead";

export interface Job {
  id: number;
  kind: string;
  key: string;
  status: JobStatus;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  runAfter: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  /** The newest input this job must cover (a session's item id, a phase-2 input time, ...). */
  inputWatermark: number;
  /** The input watermark at the moment of the last claim. */
  claimedWatermark: number | null;
  lastError: string | null;
  result: unknown;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

/** A job this process holds. `token` proves ownership; every later call on the job must present it. */
export interface Lease {
  id: number;
  kind: string;
  key: string;
  token: string;
  attempts: number;
  payload: unknown;
  inputWatermark: number;
}

/** What an enqueue did: the job's id, and whether it was added or made runnable again. */
export interface Enqueued {
  id: number;
  created: boolean;
  reopened: boolean;
}

export interface EnqueueRequest {
  kind: string;
  key: string;
  payload?: unknown;
  watermark?: number;
  runAfter?: number;
  maxAttempts?: number;
  /** Re-open a finished job even when the watermark did not move (a forced rebuild). */
  force?: boolean;
}

export type FailOutcome = "retry" | "dead" | "lost";

/** Live leases held by other processes; see JobQueue.foreignLeases. */
export interface ForeignLeases {
  held: number;
  /** Held by a process on this host that no longer runs: taken over by the next claim. */
  stopped: number;
  /** When the first and the last of them run out (ms), or null when there are none. */
  nextExpiry: number | null;
  lastExpiry: number | null;
}
