// Startup cost (issues 16, 36): the whole `cairn recall` process at 10,000 memories, timed beside a bare
// `node -e ''` in the same run (the floor no code change can go below), plus `cairn inject` and
// `cairn run --demo`; then the same recall and inject while `cairn serve` runs and answers them over
// its socket (src/cli/resident/), again beside bare node. Target: `cairn recall` p95 <= 150 ms.
// Default settings: the first recall runs in its own process and starts a resident process on demand
// (resident.idleMinutes), which answers the later recalls and injects.
// Cold: a new process, no resident, and an empty compile cache (a fresh XDG_CACHE_HOME for each
// run), as the first command after an install or a Node.js upgrade. Warm: the same with the compile
// cache that the previous runs filled, as every later command. Neither drops the OS's file cache,
// which the other runs keep filled (dropping it needs root and slows every other process on the machine).
// `--node PATH` times the bin (and bare node) under another Node.js; the store is built by this one.
// Run: npm run build && npx tsx bench/startup.ts [--runs 40] [--memories 10000] [--demo-runs 3] [--node PATH] [--json]
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Cairn } from "../src/cairn.js";
import { demoConfig, demoSources } from "../src/cli/demo.js";
import { stopResident } from "../src/cli/resident/stopResident.js";
import { CodingFacts } from "./lib/codingFacts.js";
import { percentile } from "./lib/retrievalMetrics.js";
import { mulberry32 } from "./lib/syntheticCorpus.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "40" },
    memories: { type: "string", default: "10000" },
    "demo-runs": { type: "string", default: "3" },
    /** An embedding provider other than the profile's (hashed, wordvec), for a paired comparison. */
    embeddings: { type: "string" },
    node: { type: "string" },
    json: { type: "boolean" },
  },
});
const embeddingsConfig = values.embeddings ? { "embeddings.provider": values.embeddings } : {};
const runs = Number(values.runs);
const root = mkdtempSync(join(tmpdir(), "cairn-bench-startup-"));
const home = join(root, "home");
const projects = Array.from({ length: 10 }, (_, i) => join(root, "projects", `app-${i}`));
for (const dir of projects) mkdirSync(dir, { recursive: true });

// The demo's consolidated workspaces give `inject` something to print; the memories are remembered
// through the library with the default configuration (the agent profile: word-vector embeddings).
const demo = new Cairn({ home, config: { ...demoConfig, ...embeddingsConfig }, env: {} });
await demo.run({ scan: { overrides: demoSources(), only: ["codex", "claude-code", "pi"] } });
demo.close();
const cairn = new Cairn({ home, config: embeddingsConfig, env: {} });
const facts = new CodingFacts(16);
const random = mulberry32(16);
// Templates repeat now and then (deduplicated on remember): remember until the store holds the count.
let remembered = 0;
while (remembered < Number(values.memories)) {
  const batch = Array.from({ length: Math.min(1000, Number(values.memories) - remembered) }, () => {
    const global = random() < 0.1;
    return {
      content: facts.fact(),
      cwd: projects[Math.floor(random() * projects.length)]!,
      ...(global ? { scope: "global" } : {}),
    };
  });
  remembered += (await cairn.remember(batch)).filter((o) => o.status === "created").length;
}
cairn.storage.db.pragma("wal_checkpoint(TRUNCATE)");
cairn.close();

// The package's bin, as `cairn` runs it (the CommonJS build of src/cli/main.ts).
const packageJson = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8"));
const main = join(import.meta.dirname, "..", (packageJson as { bin: { cairn: string } }).bin.cairn);
const node = values.node ?? process.execPath;
const nodeVersion = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
// The compile cache lives in the user's cache folder (src/cli/compileCache.ts): the warm series shares
// one, the cold series gets an empty one each run. Node's own cache variables would override both.
const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...inherited } = process.env;
const warmCache = join(root, "cache-warm");
const coldCache = join(root, "cache-cold");
// The series of a process that runs the command itself: CAIRN_RESIDENT=off, so it neither asks a
// resident process nor starts one (a variable the config cache's key leaves out, so that every series
// reads the same cached config).
const env: NodeJS.ProcessEnv = {
  ...inherited,
  CAIRN_HOME: home,
  XDG_CACHE_HOME: warmCache,
  CAIRN_RESIDENT: "off",
  ...(values.embeddings ? { CAIRN_EMBEDDINGS_PROVIDER: values.embeddings } : {}),
};
const coldEnv: NodeJS.ProcessEnv = { ...env, XDG_CACHE_HOME: coldCache };
const time = (
  args: string[],
  cwd: string,
  expect?: (stdout: string) => boolean,
  runEnv: NodeJS.ProcessEnv = env,
): number => {
  const started = performance.now();
  const result = spawnSync(node, args, { cwd, env: runEnv, encoding: "utf8" });
  const ms = performance.now() - started;
  // A cold run's cache is thrown away, so that the next cold run starts from an empty one again.
  if (runEnv === coldEnv) rmSync(coldCache, { recursive: true, force: true });
  if (result.status !== 0 || (expect && !expect(result.stdout)))
    throw new Error(`${args.slice(1).join(" ")} failed: ${result.stderr || result.stdout}`);
  return ms;
};

// Interleaved, so that load from other processes on the machine weighs on every series alike.
const recall: number[] = [];
const bare: number[] = [];
const inject: number[] = [];
const coldRecall: number[] = [];
const coldInject: number[] = [];
const questions = new CodingFacts(7);
const injected = (out: string) => out.includes("Project memory (weather-api)");
time([main, "recall", "warm up the file cache and the compile cache"], projects[0]!);
time([main, "inject", "--cwd", "/srv/demo/weather-api"], root, injected);
for (let i = 0; i < runs; i++) {
  const project = projects[i % projects.length]!;
  bare.push(time(["-e", ""], root));
  coldRecall.push(time([main, "recall", questions.question()], project, (out) => out.length > 0, coldEnv));
  recall.push(time([main, "recall", questions.question()], project, (out) => out.length > 0));
  coldInject.push(time([main, "inject", "--cwd", "/srv/demo/weather-api"], root, injected, coldEnv));
  inject.push(time([main, "inject", "--cwd", "/srv/demo/weather-api"], root, injected));
}

const timeAsync = async (
  args: string[],
  cwd: string,
  expect: (stdout: string) => boolean,
  runEnv: NodeJS.ProcessEnv = env,
): Promise<number> => {
  const started = performance.now();
  const child = spawn(node, args, { cwd, env: runEnv });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const status = await new Promise((done) => child.once("close", done));
  const ms = performance.now() - started;
  if (status !== 0 || !expect(stdout)) throw new Error(`${args.slice(1).join(" ")} failed: ${stdout}`);
  return ms;
};

// The default settings (resident.idleMinutes 10): the first recall runs in its own process and starts
// a resident process (src/cli/resident/startOnDemand.ts), which answers the later ones. Its log
// (CAIRN_DEBUG) counts the answers; `cairn serve` below asks it to stop and takes its socket.
const defaultEnv: NodeJS.ProcessEnv = { ...env, CAIRN_DEBUG: "1" };
delete defaultEnv.CAIRN_RESIDENT;
const residentLog = () => {
  try {
    return readFileSync(join(home, "background.log"), "utf8");
  } catch {
    return "";
  }
};
const count = (pattern: RegExp) => residentLog().match(pattern)?.length ?? 0;
// The first command in a while (none listening): it runs in its own process and starts one. Timed a
// few times, each after asking the previous resident to end.
const firstOnDemand: number[] = [];
for (let i = 0; i < 5; i++) {
  await stopResident(home);
  const started = count(/resident: answering/g);
  firstOnDemand.push(await timeAsync([main, "recall", questions.question()], projects[i]!, () => true, defaultEnv));
  const listening = Date.now() + 30_000;
  while (count(/resident: answering/g) === started) {
    if (Date.now() > listening) throw new Error(`no resident process started on demand:\n${residentLog()}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
/** `runs` recalls and injects with the default settings, alternated; `before` runs first in each round. */
const timeAnswered = async (before?: () => Promise<unknown>) => {
  const recall: number[] = [];
  const inject: number[] = [];
  for (let i = 0; i < runs; i++) {
    await before?.();
    const project = projects[i % projects.length]!;
    recall.push(await timeAsync([main, "recall", questions.question()], project, (out) => out.length > 0, defaultEnv));
    inject.push(await timeAsync([main, "inject", "--cwd", "/srv/demo/weather-api"], root, injected, defaultEnv));
  }
  return { recall, inject };
};
const answeredBefore = count(/resident: answered/g);
const { recall: onDemandRecall, inject: onDemandInject } = await timeAnswered();
const onDemandAnswered = count(/resident: answered/g) - answeredBefore;
if (onDemandAnswered !== 2 * runs)
  throw new Error(
    `the resident process started on demand answered ${onDemandAnswered} of ${2 * runs}:\n${residentLog()}`,
  );

// The resident rows: `cairn serve` (no schedule, so it only answers) holds the store open; every
// command line below must be answered by it, which its debug log counts.
const serve = spawn(node, [main, "serve", "--no-schedule", "--port", "0"], {
  env: defaultEnv,
  stdio: ["ignore", "ignore", "pipe"],
});
let serveLog = "";
await new Promise<void>((done, fail) => {
  serve.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    serveLog += chunk;
    if (serveLog.includes("resident: answering")) done();
  });
  serve.once("exit", () => fail(new Error(`cairn serve ended: ${serveLog}`)));
});
const residentBare: number[] = [];
// Spawned without blocking this process, which reads the server's log meanwhile.
await timeAsync([main, "recall", "warm up the resident process"], projects[0]!, () => true, defaultEnv);
const { recall: residentRecall, inject: residentInject } = await timeAnswered(async () =>
  residentBare.push(await timeAsync(["-e", ""], root, () => true)),
);
serve.kill("SIGTERM");
await new Promise((done) => serve.once("exit", done));
const residentAnswered = serveLog.match(/resident: answered/g)?.length ?? 0;
if (residentAnswered !== 2 * runs + 1)
  throw new Error(`the resident process answered ${residentAnswered} of ${2 * runs + 1} command lines:\n${serveLog}`);

const demoRuns: number[] = [];
for (let i = 0; i < Number(values["demo-runs"]); i++) {
  const demoHome = join(root, `demo-${i}`);
  demoRuns.push(time([main, "--home", demoHome, "run", "--demo"], root));
  rmSync(demoHome, { recursive: true, force: true });
}
rmSync(root, { recursive: true, force: true });

const stats = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return { p50ms: Math.round(percentile(sorted, 0.5)), p95ms: Math.round(percentile(sorted, 0.95)) };
};
const result = {
  machine: `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, Node ${nodeVersion}`,
  memories: remembered,
  runs,
  cold: { recall: stats(coldRecall), inject: stats(coldInject) },
  recall: stats(recall),
  inject: stats(inject),
  bareNode: stats(bare),
  onDemand: { first: stats(firstOnDemand), recall: stats(onDemandRecall), inject: stats(onDemandInject) },
  resident: { recall: stats(residentRecall), inject: stats(residentInject), bareNode: stats(residentBare) },
  runDemoMedianMs: stats(demoRuns).p50ms,
};
if (values.json) console.log(JSON.stringify(result));
else {
  console.log(`startup benchmark on ${result.machine}: ${result.memories} memories, ${runs} runs of each process`);
  const { cold, onDemand } = result;
  console.log("  default settings: the first recall starts a resident process, which answers the later ones");
  console.log(
    `  cairn recall   the first in a while (5 runs): p50 ${onDemand.first.p50ms} ms; the later ones p50 ${onDemand.recall.p50ms} ms, p95 ${onDemand.recall.p95ms} ms (target p95 <= 150 ms)`,
  );
  console.log(`  cairn inject   p50 ${onDemand.inject.p50ms} ms, p95 ${onDemand.inject.p95ms} ms`);
  console.log("  every command in its own process (CAIRN_RESIDENT=off: no resident process, no `cairn serve`);");
  console.log("  cold: empty compile cache (the first command after an install), warm: the cache earlier runs filled");
  console.log(`  cairn recall   cold p50 ${cold.recall.p50ms} ms, p95 ${cold.recall.p95ms} ms`);
  console.log(`  cairn recall   warm p50 ${result.recall.p50ms} ms, p95 ${result.recall.p95ms} ms`);
  console.log(`  cairn inject   cold p50 ${cold.inject.p50ms} ms, p95 ${cold.inject.p95ms} ms`);
  console.log(`  cairn inject   warm p50 ${result.inject.p50ms} ms, p95 ${result.inject.p95ms} ms`);
  console.log(`  node -e ''     p50 ${result.bareNode.p50ms} ms, p95 ${result.bareNode.p95ms} ms`);
  console.log(`  cairn run --demo: median ${result.runDemoMedianMs} ms of ${demoRuns.length}`);
  console.log("  while `cairn serve` runs (resident process answering over its socket):");
  const { resident } = result;
  console.log(
    `  cairn recall   p50 ${resident.recall.p50ms} ms, p95 ${resident.recall.p95ms} ms (target p95 <= 150 ms)`,
  );
  console.log(`  cairn inject   p50 ${resident.inject.p50ms} ms, p95 ${resident.inject.p95ms} ms`);
  console.log(`  node -e ''     p50 ${resident.bareNode.p50ms} ms, p95 ${resident.bareNode.p95ms} ms`);
}
