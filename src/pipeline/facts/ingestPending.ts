import type { Stage1Repository } from "../../store/repositories/stage1Repository.js";
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
 * ingested only after `ingest` succeeded for it.
 */
export async function ingestPendingFacts(deps: {
  stage1: Pick<Stage1Repository, "pendingFacts" | "markFactsIngested">;
  ingest: (output: Stage1Output) => Promise<{ written: number }>;
  clock: Clock;
}): Promise<FactsReport> {
  const totals: FactsReport = { outputs: 0, written: 0, failed: 0, errors: [] };
  const failed = new Set<string>();
  for (;;) {
    // Outputs that failed this run stay pending for the next one; skip past them, not stop at them.
    const batch = deps.stage1.pendingFacts(BATCH + failed.size).filter((output) => !failed.has(output.sessionId));
    if (batch.length === 0) return totals;
    for (const output of batch) {
      try {
        const { written } = await deps.ingest(output);
        deps.stage1.markFactsIngested(output.sessionId, output.generatedAt, deps.clock());
        totals.outputs += 1;
        totals.written += written;
      } catch (error) {
        failed.add(output.sessionId);
        totals.failed += 1;
        totals.errors.push({ sessionId: output.sessionId, error: errorMessage(error) });
      }
    }
  }
}
