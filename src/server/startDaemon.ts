import type { Cairn } from "../cairn.js";
import { errorMessage } from "../util/errors.js";
import { type CycleReport, formatCycle, runPipelineCycle } from "../workers/runPipeline.js";
import { Scheduler, type Timers } from "../workers/scheduler.js";
import { assertBindAllowed, loopbackHostNames } from "./bindPolicy.js";
import { createHttpApp } from "./createHttpApp.js";
import { startHttpServer } from "./startHttpServer.js";

export interface DaemonOptions {
  /** Owned by the daemon from now on: stop() closes it. */
  cairn: Cairn;
  /** Defaults: server.host and server.port from the config. */
  host?: string;
  port?: number;
  /** Run the pipeline on a schedule (default true); false serves the API only. */
  schedule?: boolean;
  /** One line per cycle and per lifecycle event; default stderr. */
  log?: (line: string) => void;
  /** How long stop() waits for a running pipeline step before giving up on it (its leases then expire). */
  stopWaitMs?: number;
  timers?: Timers;
}

export interface Daemon {
  url: string;
  port: number;
  scheduler: Scheduler | undefined;
  stop(): Promise<void>;
}

/**
 * `cairn serve`: the HTTP API (with MCP at /mcp) and the pipeline on a schedule (collection, then phase 1
 * and phase 2 every `collection.scanIntervalSeconds`). Several daemons and terminal runs can share one
 * store: the job queue's leases and the run lock keep their work apart.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { cairn } = options;
  const log = options.log ?? ((line: string) => process.stderr.write(`cairn serve: ${line}\n`));
  const host = options.host ?? cairn.config.server.host;
  const port = options.port ?? cairn.config.server.port;
  const token = cairn.config.server.token || undefined;
  assertBindAllowed(host, token);

  let lastCycle: CycleReport | null = null;
  const scheduler =
    options.schedule === false
      ? undefined
      : new Scheduler({
          intervalMs: cairn.config.collection.scanIntervalSeconds * 1000,
          task: async () => {
            lastCycle = await runPipelineCycle(cairn);
            log(formatCycle(lastCycle));
          },
          onError: (error) => log(`pipeline error: ${errorMessage(error)}`),
          ...(options.timers ? { timers: options.timers } : {}),
        });
  // Memories pushed through the API get their hints between pipeline cycles (seed 004's polling worker).
  const hintsScheduler =
    options.schedule === false || !cairn.config.recall.hints.enabled
      ? undefined
      : new Scheduler({
          intervalMs: cairn.config.recall.hints.pollMs,
          task: async () => {
            const report = await cairn.generateHints();
            if (report.indexed > 0 || report.failed > 0) {
              log(`hints ${report.indexed} indexed, ${report.failed} failed, ${report.pending} pending`);
            }
          },
          onError: (error) => log(`hints error: ${errorMessage(error)}`),
          ...(options.timers ? { timers: options.timers } : {}),
        });
  const app = createHttpApp({
    cairn,
    ...(token ? { token } : { allowedHostNames: loopbackHostNames(host) }),
    ...(scheduler ? { triggerRun: () => scheduler.trigger() } : {}),
    daemonStatus: () => ({
      schedule: scheduler ? { intervalSeconds: cairn.config.collection.scanIntervalSeconds } : null,
      running: scheduler?.running ?? false,
      lastCycle,
    }),
  });
  const http = await startHttpServer(app, { host, port });
  scheduler?.start();
  hintsScheduler?.start();
  log(
    `listening on ${http.url}${token ? " (token required)" : ""}; ${
      scheduler ? `pipeline every ${cairn.config.collection.scanIntervalSeconds} s` : "no schedule"
    }`,
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const waitMs = options.stopWaitMs ?? 30_000;
      const [pipelineIdle, hintsIdle] = await Promise.all([
        scheduler ? scheduler.stop(waitMs) : true,
        hintsScheduler ? hintsScheduler.stop(waitMs) : true,
      ]);
      const idle = pipelineIdle && hintsIdle;
      if (!idle) log("a pipeline step is still running; leaving it (its leases will expire and be taken over)");
      await http.close();
      if (idle) cairn.close();
      log("stopped");
    })();
    return stopping;
  };
  return { url: http.url, port: http.port, scheduler, stop };
}
