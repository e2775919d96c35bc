import type { Cairn } from "../../cairn.js";
import type { RetentionReport } from "../../memory/retention/runRetention.js";
import { BackgroundWorker } from "../../workers/backgroundWorker.js";
import { describeRetention, retentionWorker } from "../../workers/retentionWorker.js";
import { storeStatsSink } from "../../workers/workerStatsStore.js";
import { printJson, printLine } from "../output.js";

/**
 * `cairn doctor --retention`: one retention sweep now, on the queue like the scheduled ones (a sweep
 * another process runs at the same time is joined, not doubled) and counted in the worker's stats,
 * even when `workers.retention.enabled` is false: the user asked for it.
 */
export async function doctorRetention(cairn: Cairn, options: { json: boolean }): Promise<void> {
  let report: RetentionReport | undefined;
  const host = { storage: cairn.storage, config: cairn.config, clock: cairn.clock, log: () => {} };
  const worker = new BackgroundWorker(
    retentionWorker(host, {
      force: true,
      onReport: (done) => {
        report = done;
      },
    }),
    { sink: storeStatsSink(() => cairn.storage), clock: cairn.clock },
  );
  const cycle = await worker.tick();
  if (options.json) return printJson({ cycle, report: report ?? null });
  if (report) return printLine(`retention     ${describeRetention(report)}`);
  printLine(
    `retention     no sweep ran: ${cycle.skipped === "nothing due" ? "another cairn process is sweeping now; try again in a minute" : cycle.skipped}`,
  );
}
