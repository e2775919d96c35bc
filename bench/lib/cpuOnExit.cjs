// Preloaded into a benchmarked CLI process (`node --require`): writes the CPU time the process used,
// all its threads, to the file CAIRN_BENCH_CPU_FILE names, so that a benchmark on a shared machine can
// report what the command cost beside the wall time other programs' load stretches.
const { writeFileSync } = require("node:fs");

process.on("exit", () => {
  const file = process.env.CAIRN_BENCH_CPU_FILE;
  if (file) writeFileSync(file, JSON.stringify(process.cpuUsage()));
});
