/**
 * Session quality: what cairn remembers from real coding sessions, scored by the evaluator of the shared
 * data set (../shared/bench/session-quality) against its hand-written gold items. The evaluator lays the
 * fixture transcripts (../shared/fixtures/transcripts) out where each agent writes them under a temporary
 * HOME, runs this checkout's built CLI (`cairn run`, offline unless told otherwise) and prints, per session
 * and in total, the gold items kept and injected and the harmful items found.
 *
 *   npm run bench:quality [-- --items] [--session TEXT] [--set key=value] [--max-harmful N] [--data DIR]
 *
 * Every option but --data and --max-harmful goes to the evaluator as given (its README lists them).
 * --max-harmful N exits 1 when more than N must-not items matched (CI passes 0).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { optionValue, sessionQualityData } from "./lib/sessionQualityData.js";

const ROOT = join(import.meta.dirname, "..");
const DEFAULT_DATA = join(ROOT, "..", "shared");

function main(): number {
  const args = process.argv.slice(2);
  const shared = resolve(optionValue(args, "--data") ?? DEFAULT_DATA);
  const maxHarmful = optionValue(args, "--max-harmful");
  if (maxHarmful !== undefined && !/^\d+$/.test(maxHarmful)) {
    throw new Error(`--max-harmful needs a whole number (got ${maxHarmful})`);
  }
  const { evaluator, split, transcripts, missing } = sessionQualityData(shared);
  if (missing) {
    console.log(
      `bench:quality skipped: ${missing} is absent (pass --data DIR, the folder holding bench/ and fixtures/)`,
    );
    return 0;
  }
  if (!existsSync(join(ROOT, "dist", "cli", "main.cjs"))) {
    console.error("bench:quality: the CLI is not built; run `npm run build` first");
    return 1;
  }
  const run = spawnSync(process.execPath, [evaluator, ROOT, split, transcripts, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stdout.write(run.stdout ?? "");
  if (run.status !== 0) return run.status ?? 1;
  const summaryLine = (run.stdout ?? "").split("\n").find((line) => line.startsWith("SUMMARY "));
  if (maxHarmful === undefined) return 0;
  if (!summaryLine) {
    console.error("bench:quality: the evaluator printed no SUMMARY line");
    return 1;
  }
  const { harmful, harmfulIds } = JSON.parse(summaryLine.slice("SUMMARY ".length)) as {
    harmful: number;
    harmfulIds: string[];
  };
  if (harmful > Number(maxHarmful)) {
    console.error(`bench:quality: ${harmful} harmful item(s) (${harmfulIds.join(", ")}), more than ${maxHarmful}`);
    return 1;
  }
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  console.error(`bench:quality: ${(error as Error).message}`);
  process.exitCode = 1;
}
