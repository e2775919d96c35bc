import type { JobQueue } from "./jobQueue.js";
import type { Lease } from "./types.js";

export interface LeaseHeartbeat {
  /** The job of this lease ended: stop renewing it. */
  done(lease: Lease): void;
  /** Stops renewing every lease (call in a `finally`). */
  stop(): void;
}

/**
 * Renews `leases` every third of the lease time (at least once a second), so a lease outlives a slow
 * model call but expires soon after its process dies. A lease that can no longer be renewed (another
 * process took it over, or the job was removed) is dropped and reported once through `onLost`.
 */
export function startLeaseHeartbeat(options: {
  jobs: Pick<JobQueue, "heartbeat">;
  leases: Iterable<Lease>;
  leaseMs: number;
  onLost?: (lease: Lease) => void;
}): LeaseHeartbeat {
  const held = new Set(options.leases);
  const timer = setInterval(
    () => {
      for (const lease of held) {
        if (options.jobs.heartbeat(lease, options.leaseMs)) continue;
        held.delete(lease);
        options.onLost?.(lease);
      }
    },
    Math.max(1000, options.leaseMs / 3),
  );
  return {
    done: (lease) => held.delete(lease),
    stop: () => clearInterval(timer),
  };
}
