/** The command that gives dead jobs a fresh retry budget, named once for every message that points to it. */
export const RETRY_DEAD_COMMAND = "cairn run --retry-dead";

/**
 * "33 jobs (phase1 33, phase2 1)": how many jobs of each kind, or undefined when there are none.
 * Dead jobs are the ones whose attempts ran out (or that failed for good); they wait for new input
 * or for RETRY_DEAD_COMMAND.
 */
export function describeDeadJobs(byKind: Readonly<Record<string, number>>): string | undefined {
  const kinds = Object.entries(byKind).filter(([, n]) => n > 0);
  const total = kinds.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return undefined;
  return `${total} job${total === 1 ? "" : "s"} (${kinds.map(([kind, n]) => `${kind} ${n}`).join(", ")})`;
}
