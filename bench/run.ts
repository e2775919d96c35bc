// `npm run bench`: the collection and phase-1 benchmarks, one after the other, each in its own process
// so that one's memory does not weigh on the other. Extra arguments go to both (e.g. --files 2000).
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const args = process.argv.slice(2);
for (const bench of ["scan.ts", "phase1.ts"]) {
  const script = join(import.meta.dirname, bench);
  const passed = bench === "scan.ts" ? args.filter((arg) => !arg.startsWith("--sessions")) : args.filter((arg) => !arg.startsWith("--files"));
  const result = spawnSync(process.execPath, ["--import", "tsx", script, ...passed], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
