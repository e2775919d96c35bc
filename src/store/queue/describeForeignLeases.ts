import type { ForeignLeases } from "./types.js";

/**
 * One line about sessions that wait on other processes' leases, or undefined when none do. A holder
 * on this host whose process is gone is known to have stopped (the next claim takes its leases over);
 * any other holder may still be working, so its leases are retried only once they run out.
 */
export function describeForeignLeases(leases: ForeignLeases): string | undefined {
  const parts: string[] = [];
  const unknown = leases.held - leases.stopped;
  if (unknown > 0 && leases.lastExpiry !== null) {
    parts.push(
      `${unknown} session${unknown === 1 ? "" : "s"} wait on leases of another cairn process (still running, or stopped without handing them back); they are retried after ${new Date(leases.lastExpiry).toISOString()}`,
    );
  }
  if (leases.stopped > 0) {
    parts.push(
      `${leases.stopped} session${leases.stopped === 1 ? "" : "s"} wait on leases of a cairn process that stopped; the next 'cairn run' takes them over`,
    );
  }
  return parts.length > 0 ? parts.join("; ") : undefined;
}
