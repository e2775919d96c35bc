import type { Stage1Repository } from "../../store/repositories/stage1Repository.js";
import { rethrowStoreFault } from "../../store/storeFault.js";
import type { Clock } from "../../util/clock.js";
import { errorMessage } from "../../util/errors.js";
import type { Phase1Report } from "../phase1/runPhase1.js";
import type { Stage1Output } from "../phase1/types.js";

/** What the fact step adds to a phase-1 report. */
export type FactsReport = NonNullable<Phase1Report["facts"]>;

const BATCH = 50;

/**
 * Stage-1 outputs are stored first; their facts follow in this separate step, so a crash or a failing
 * decision model leaves them pending for the next run instead of losing them. Each output is marked
 * ingested only after `ingest` succeeded for it. `concurrency` workers pull outputs from one stream
 * (refilled from the store as it drains, so no batch boundary idles a worker): their model calls
 * overlap, their writes (short synchronous transactions) serialize by themselves.
 */
/**
 * Ingests one stage-1 output's facts and marks it ingested, adding to `totals`; false when it failed
 * (it then stays pending). Used for each output as phase 1 stores it, and by the sweep below.
 */
export async function ingestOutput(
  deps: Pick<Parameters<typeof ingestPendingFacts>[0], "stage1" | "ingest" | "clock">,
  output: Stage1Output,
  totals: FactsReport,
): Promise<boolean> {
  try {
    const { written, belowThreshold } = await deps.ingest(output);
    deps.stage1.markFactsIngested(output.sessionId, output.generatedAt, deps.clock());
    totals.outputs += 1;
    totals.written += written;
    if (belowThreshold) totals.belowThreshold = (totals.belowThreshold ?? 0) + belowThreshold;
    return true;
  } catch (error) {
    rethrowStoreFault(error);
    totals.failed += 1;
    totals.errors.push({ sessionId: output.sessionId, error: errorMessage(error) });
    return false;
  }
}

export async function ingestPendingFacts(deps: {
  stage1: Pick<Stage1Repository, "pendingFacts" | "markFactsIngested">;
  ingest: (output: Stage1Output) => Promise<{ written: number; belowThreshold?: number }>;
  clock: Clock;
  /** Outputs ingested at once (extraction.concurrency); default 1. */
  concurrency?: number;
}): Promise<FactsReport> {
  const totals: FactsReport = { outputs: 0, written: 0, failed: 0, errors: [] };
  // Sessions in flight, and those that failed this run: they stay pending for the next run, so
  // refills skip past them instead of stopping at them.
  const taken = new Set<string>();
  let queue: Stage1Output[] = [];
  let drained = false;
  const next = (): Stage1Output | undefined => {
    if (queue.length === 0 && !drained) {
      // One output per session at a time, oldest first: a session's later output waits for a later refill.
      const bySession = new Map<string, Stage1Output>();
      for (const output of deps.stage1.pendingFacts(BATCH + taken.size)) {
        if (!taken.has(output.sessionId) && !bySession.has(output.sessionId)) bySession.set(output.sessionId, output);
      }
      queue = [...bySession.values()];
      drained = queue.length === 0;
    }
    const output = queue.shift();
    if (output) taken.add(output.sessionId);
    return output;
  };
  const worker = async () => {
    for (let output = next(); output; output = next()) {
      if (await ingestOutput(deps, output, totals)) taken.delete(output.sessionId);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.concurrency ?? 1) }, worker));
  return totals;
}
