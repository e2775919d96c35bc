/**
 * Scale, in two parts.
 * - `cli`: `cairn remember --file` through the built CLI as a user runs it (lifecycle on: every memory
 *   is revised for supersession), of --varied coding memories on many subjects and of --near
 *   near-duplicates on --subjects services; memories/s of the whole command.
 * - `store`: builds stores of synthetic memories on MemoryStore (no revise job) and reports bulk
 *   remember throughput (FTS, vectors and the sqlite-vec index included), recall latency p50/p95/p99
 *   and RSS, with the settings a user gets by default (the agent profile: word-vector embeddings)
 *   unless --embeddings names another provider.
 *
 *   npm run bench:recall -- [--only cli|store] [--varied 10000] [--near 2000] [--subjects 5]
 *     [--sizes 10000,100000,1000000] [--queries 300] [--embeddings hashed] [--json]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { validateConfig } from "../src/config/load.js";
import { MemoryStore } from "../src/memory/memoryStore.js";
import { createEmbeddingProvider } from "../src/providers/embeddings/createEmbeddingProvider.js";
import { createRecall } from "../src/recall/createRecall.js";
import { Storage } from "../src/store/storage.js";
import { cliRemember } from "./lib/cliRemember.js";
import { CodingMemories } from "./lib/codingMemories.js";
import { percentile } from "./lib/retrievalMetrics.js";
import { SyntheticCorpus } from "./lib/syntheticCorpus.js";

const BATCH = 2000;

async function measure(size: number, queries: number, provider: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), "cairn-scale-"));
  const path = join(dir, "memory.db");
  const storage = Storage.open(path, { dimensions: 384 });
  const { db } = storage;
  const settings = validateConfig(provider ? { embeddings: { provider } } : {});
  const embeddings = createEmbeddingProvider(settings.embeddings);
  const config = settings.recall;
  const store = new MemoryStore({
    storage,
    embeddings,
    config,
    recall: createRecall({ storage, provider: embeddings, config }),
  });
  const corpus = new SyntheticCorpus(42, 50_000, Math.max(10, Math.round(size / 10_000)));
  const samples: { content: string; scope: string }[] = [];
  const t0 = performance.now();
  for (let done = 0; done < size; done += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, size - done) }, () => corpus.memory());
    if (samples.length < queries && done % Math.max(BATCH, Math.floor(size / queries)) === 0)
      samples.push(...batch.slice(0, 5));
    await store.remember(batch);
  }
  const buildSeconds = (performance.now() - t0) / 1000;
  db.pragma("wal_checkpoint(TRUNCATE)");
  const latencies: number[] = [];
  for (let i = 0; i < 20; i++)
    await store.recall({ ...corpus.queryFrom(samples[i % samples.length]!), countUsage: false });
  for (let i = 0; i < queries; i++) {
    const q = corpus.queryFrom(samples[i % samples.length]!);
    const start = performance.now();
    await store.recall({ ...q, k: 10, countUsage: false });
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  const result = {
    size,
    rememberPerSecond: Math.round(size / buildSeconds),
    recallP50ms: round(percentile(latencies, 0.5)),
    recallP95ms: round(percentile(latencies, 0.95)),
    recallP99ms: round(percentile(latencies, 0.99)),
    rssMB: Math.round(process.memoryUsage().rss / 1e6),
    dbMB: Math.round(statSync(path).size / 1e6),
    embeddings: embeddings.model,
    vectorIndex: storage.vecError === null,
  };
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** The two CLI imports: varied memories, then near-duplicates on a few subjects (separate stores). */
function measureCli(varied: number, near: number, subjects: number) {
  const variedItems = new CodingMemories(7);
  const nearItems = new CodingMemories(11);
  return [
    { run: "cli varied", ...cliRemember(Array.from({ length: varied }, () => variedItems.varied())) },
    {
      run: `cli near-duplicates (${subjects} subjects)`,
      ...cliRemember(Array.from({ length: near }, () => nearItems.nearDuplicate(subjects))),
    },
  ];
}

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    varied: { type: "string", default: "10000" },
    near: { type: "string", default: "2000" },
    subjects: { type: "string", default: "5" },
    sizes: { type: "string", default: "10000,100000,1000000" },
    queries: { type: "string", default: "300" },
    embeddings: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const machine = {
  cores: availableParallelism(),
  cpu: cpus()[0]?.model ?? "unknown",
  node: process.version,
};
const results: unknown[] = [machine];
if (!values.json) console.log(JSON.stringify(machine));
const report = (result: unknown) => {
  results.push(result);
  if (!values.json) console.log(JSON.stringify(result));
};
if (values.only !== "store")
  for (const result of measureCli(Number(values.varied), Number(values.near), Number(values.subjects))) report(result);
if (values.only !== "cli")
  for (const size of values.sizes.split(",").map(Number))
    report(await measure(size, Number(values.queries), values.embeddings));
if (values.json) console.log(JSON.stringify(results));
