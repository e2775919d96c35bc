import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { ScanReport } from "../../src/collection/scanner.js";

/**
 * `cairn scan --json` as a user runs it: the built CLI (`npm run build` first), in its own process, with
 * lanes as in production. `env` should point HOME inside the bench folder, so that no agent's real
 * sessions on this machine are scanned along. CAIRN_BENCH_PROFILE=<dir> writes CPU profiles there.
 */
export function cliScan(options: { sources: readonly string[]; env: NodeJS.ProcessEnv }): {
  report: ScanReport;
  wallMs: number;
} {
  const main = join(import.meta.dirname, "..", "..", "dist", "cli", "main.js");
  const profile = process.env.CAIRN_BENCH_PROFILE;
  const started = performance.now();
  const child = spawnSync(
    process.execPath,
    [
      ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []),
      main,
      "scan",
      "--json",
      ...options.sources.flatMap((source) => ["--source", source]),
    ],
    { env: options.env, encoding: "utf8", maxBuffer: 1 << 30 },
  );
  const wallMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`cairn scan failed: ${child.stderr}`);
  return { report: JSON.parse(child.stdout) as ScanReport, wallMs };
}
