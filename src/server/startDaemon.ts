import type { Cairn } from "../cairn.js";
import { redactText } from "../redact/redact.js";
import { checkStoreIfDue } from "../store/storeCheck.js";
import { explainStoreError } from "../store/storeFault.js";
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
  const sink = options.log ?? ((line: string) => process.stderr.write(`cairn serve: ${line}\n`));
  // Every log line leaves redacted: an error can quote a provider's answer, a path or a config value.
  const log = (line: string) => sink(redactText(line));
  const host = options.host ?? cairn.config.server.host;
  const port = options.port ?? cairn.config.server.port;
  const token = cairn.config.server.token || undefined;
  assertBindAllowed(host, token);

  let lastCycle: CycleReport | null = null;
  const loop = (what: string, intervalMs: number, task: () => Promise<void>) =>
    options.schedule === false
      ? undefined
      : new Scheduler({
          intervalMs,
          task: async () => {
            if (cairn.reopenIfReplaced()) log(`the store at ${cairn.paths.database} was replaced; reopened it`);
            await task();
          },
          // A damaged store is marked, so that no request or later cycle writes into it.
          onError: (error) => log(`${what} error: ${errorMessage(explainStoreError(error, cairn.paths.database))}`),
          ...(options.timers ? { timers: options.timers } : {}),
        });
  const scheduler = loop("pipeline", cairn.config.collection.scanIntervalSeconds * 1000, async () => {
    // The daemon keeps its store open, so the check at open never comes again: a full one now and then.
    if (checkStoreIfDue(cairn.paths.database)) log("store check: quick_check ok");
    lastCycle = await runPipelineCycle(cairn);
    log(formatCycle(lastCycle));
  });
  // Between pipeline cycles: memories pushed through the API get their hints (seed 004's polling
  // worker), and vectors the provider could not compute when they were written (it was down).
  const { hints, embeddingTracker } = cairn.config.recall;
  const background = [
    hints.enabled
      ? loop("hints", hints.pollMs, async () => {
          const report = await cairn.generateHints();
          if (report.indexed > 0 || report.failed > 0) {
            log(`hints ${report.indexed} indexed, ${report.failed} failed, ${report.pending} pending`);
          }
        })
      : undefined,
    embeddingTracker.enabled
      ? loop("embeddings", embeddingTracker.pollMs, async () => {
          const written = await cairn.refreshEmbeddings();
          if (written > 0) log(`embeddings ${written} vectors written`);
        })
      : undefined,
  ].filter((s): s is Scheduler => s !== undefined);
  // Seed 004's workers (retention, maintenance, documents, ...) on their own schedules; each also runs as
  // the last step of every pipeline cycle, and the queue keeps the two from doing a job twice.
  const workers = options.schedule === false ? undefined : await cairn.workers();
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
  for (const s of background) s.start();
  for (const started of workers?.start() ?? []) {
    if (!started.started) log(`${started.name} worker not scheduled: ${started.reason}`);
  }
  log(
    `listening on ${http.url}${token ? " (token required)" : ""}; ${
      scheduler ? `pipeline every ${cairn.config.collection.scanIntervalSeconds} s` : "no schedule"
    }`,
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const waitMs = options.stopWaitMs ?? 30_000;
      const idle = (
        await Promise.all([
          ...[scheduler, ...background].map((s) => (s ? s.stop(waitMs) : true)),
          workers ? workers.stop(waitMs) : true,
        ])
      ).every(Boolean);
      if (!idle) log("a pipeline step is still running; leaving it (its leases will expire and be taken over)");
      await http.close();
      if (idle) cairn.close();
      log("stopped");
    })();
    return stopping;
  };
  return { url: http.url, port: http.port, scheduler, stop };
}
