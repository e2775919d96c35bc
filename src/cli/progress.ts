import { createRequire } from "node:module";
import type CliProgress from "cli-progress";
import type { OnProgress, WorkProgress } from "../util/progress.js";

const require = createRequire(import.meta.url);

/** Shows the counts a service reports (`report`) while it works; `stop` clears the last bar. */
export interface Progress {
  report: OnProgress;
  stop(): void;
}

/** Where a bar is drawn: a terminal stream (tests pass a fake one with `isTTY`). */
export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

const silent: Progress = { report() {}, stop() {} };

/**
 * A bar on stderr that moves with the work a service reports: one bar per step (files found, files
 * read, sessions extracted, memories embedded), with the count, the total when known, the rate and the
 * time left. Only on a terminal read by a person: never in a pipe, with --json, in CI logs or on a
 * dumb terminal, where it would be noise in the output.
 */
export function createProgress(options: {
  json?: boolean;
  stream?: ProgressStream;
  env?: NodeJS.ProcessEnv;
}): Progress {
  const stream = options.stream ?? process.stderr;
  const env = options.env ?? process.env;
  if (options.json || stream.isTTY !== true || isCi(env) || env.TERM === "dumb") return silent;
  // Required only when a bar is shown: piped and --json runs never load it.
  const cliProgress = require("cli-progress") as typeof CliProgress;
  let current: { key: string; bar: CliProgress.SingleBar; started: number } | undefined;
  const stop = () => {
    current?.bar.stop();
    current = undefined;
  };
  return {
    report(progress) {
      const key = `${progress.step}/${progress.unit}`;
      if (current?.key !== key) {
        stop();
        const bar = new cliProgress.SingleBar(
          {
            stream: stream as NodeJS.WritableStream,
            format: progress.total === undefined ? OPEN_FORMAT : COUNTED_FORMAT,
            hideCursor: true,
            clearOnComplete: true,
          },
          cliProgress.Presets.shades_classic,
        );
        current = { key, bar, started: Date.now() };
        bar.start(progress.total ?? 0, progress.done, payload(progress, 0));
      } else {
        if (progress.total !== undefined) current.bar.setTotal(progress.total);
        current.bar.update(progress.done, payload(progress, (Date.now() - current.started) / 1000));
      }
      // A finished step leaves no bar behind while the next, unreported work runs.
      if (progress.total !== undefined && progress.done >= progress.total) stop();
    },
    stop,
  };
}

const COUNTED_FORMAT = "{step} [{bar}] {value}/{total} {unit}{rate}{left}";
const OPEN_FORMAT = "{step} {value} {unit}{rate}";

/** The words around the counts: the rate once a second of work gives one, and the time left. */
function payload(progress: WorkProgress, seconds: number): Record<string, string> {
  const rate = seconds >= 1 ? progress.done / seconds : undefined;
  const left =
    rate && progress.total !== undefined && progress.done < progress.total
      ? `, ${duration((progress.total - progress.done) / rate)} left`
      : "";
  return {
    step: progress.step,
    unit: progress.unit,
    rate: rate === undefined ? "" : `, ${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} ${progress.unit}/s`,
    left,
  };
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** CI services set CI (GitHub Actions, GitLab, CircleCI, Travis, Buildkite...); some give their logs a TTY. */
function isCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false";
}
