import { createRequire } from "node:module";
import type CliProgress from "cli-progress";

const require = createRequire(import.meta.url);

export interface Progress {
  start(total: number, label: string): void;
  update(done: number, detail?: string): void;
  stop(): void;
}

const silent: Progress = { start() {}, update() {}, stop() {} };

/** A progress bar on stderr when it is a terminal and output is for people; silent when piped or --json. */
export function createProgress(options: { json?: boolean }): Progress {
  if (options.json || !process.stderr.isTTY) return silent;
  // Required only when a bar is shown: piped and --json runs never load it.
  const cliProgress = require("cli-progress") as typeof CliProgress;
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: "{label} [{bar}] {value}/{total} {detail}",
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let total = 0;
  return {
    start(count, label) {
      total = count;
      bar.start(Math.max(count, 1), 0, { label, detail: "" });
    },
    update(done, detail) {
      if (done > total) {
        total = done;
        bar.setTotal(done);
      }
      bar.update(done, { detail: detail ?? "" });
    },
    stop() {
      bar.stop();
    },
  };
}
