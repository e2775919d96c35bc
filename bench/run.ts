// `npm run bench`: the collection benchmarks (large files, then many small ones), the phase-1 benchmark
// and the startup benchmark with their default sizes, each in its own process so that one's memory does
// not weigh on the other. Run a single one with options directly, e.g. `npx tsx bench/scan.ts --files
// 2000` or `npx tsx bench/small-files.ts --runs 5`. The small-files and startup benchmarks time the built
// CLI: `npm run bench` builds first.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

for (const bench of ["scan.ts", "small-files.ts", "phase1.ts", "startup.ts"]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, bench)], {
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
