// Phase-1 benchmark: the path `cairn extract` runs (phase 1, then the fact stage with its decisions)
// against an OpenAI-compatible fake model on 127.0.0.1 that extracts several facts per session, some
// stored already by earlier sessions, so decisions happen. Once with an instant model (sessions per
// second), once with a model answering in 200 ms at concurrency 8: efficiency = ideal time (every model
// call counted at the server, packed perfectly into 8 lanes) / measured time.
// Run: npx tsx bench/phase1.ts [--sessions 500] [--slow-sessions 64] [--slow 200] [--items 200]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Cairn } from "../src/cairn.js";
import { Collector } from "../src/collection/collector.js";
import type { SessionItem } from "../src/sources/types.js";
import { withWriteTx } from "../src/store/tx.js";
import { startFactModelServer } from "./lib/factModelServer.js";
import { mainThreadCpuMs } from "./lib/mainThreadCpu.js";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "500" },
    "slow-sessions": { type: "string", default: "64" },
    slow: { type: "string", default: "200" },
    items: { type: "string", default: "200" },
    json: { type: "boolean" },
  },
});
const DAY = 86_400_000;
const CONCURRENCY = 8;
const itemsPerSession = Number(values.items);

function seed(cairn: Cairn, count: number): void {
  const now = Date.now();
  const { storage } = cairn;
  const collector = new Collector(storage.sessions, storage.items, {
    maxUnprocessedItems: 5,
    clock: () => now,
    projectKeyOf: () => "path:/srv/bench",
  });
  withWriteTx(storage.db, () => {
    for (let s = 0; s < count; s++) {
      const items: SessionItem[] = [];
      for (let i = 0; i < itemsPerSession; i++) {
        const role = (["user", "assistant", "tool_call", "tool_result"] as const)[i % 4]!;
        const text =
          role === "tool_result"
            ? `PASS test/module-${i}.test.ts\n${"ok line\n".repeat(30)}`
            : role === "tool_call"
              ? JSON.stringify({ cmd: `pnpm test --filter module-${i}` })
              : `${role === "user" ? "Please" : "I will"} handle step ${i} of the migration; always keep the API stable.`;
        items.push({
          key: `L${i}`,
          role,
          text,
          ...(role.startsWith("tool") ? { tool: "exec_command", callId: `c${i - (i % 4)}` } : {}),
          origin: { file: "bench", line: i },
        });
      }
      collector.apply(
        {
          session: {
            id: `bench-${s}`,
            agent: "codex",
            kind: "interactive",
            cwd: "/srv/bench",
            startedAt: now - 2 * DAY,
            updatedAt: now - DAY,
          },
          items,
        },
        "bench",
      );
      collector.end(`bench-${s}`);
    }
  });
}

async function measure(label: string, count: number, delayMs: number) {
  const home = mkdtempSync(join(tmpdir(), "cairn-bench-p1-"));
  const server = await startFactModelServer({ delayMs, itemsPerSession });
  const cairn = new Cairn({
    home,
    env: { HOME: home },
    importLanes: false,
    config: {
      "llm.provider": "openai",
      "llm.baseUrl": server.baseUrl,
      "llm.model": "bench-model",
      "llm.apiKey": "bench",
      "memories.maxRolloutsPerStartup": count,
      "extraction.concurrency": CONCURRENCY,
      "extraction.scanLimit": count,
      "extraction.runningCap": count,
    },
  });
  try {
    seed(cairn, count);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const threadBefore = mainThreadCpuMs();
    const report = await cairn.extract();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const threadAfter = mainThreadCpuMs();
    const ok = report.jobs.filter((job) => job.outcome === "succeeded").length;
    const counted = server.calls;
    const calls = counted.extraction + counted.decisions + counted.other;
    const idealSeconds = (calls * delayMs) / 1000 / CONCURRENCY;
    return {
      label,
      sessions: count,
      succeeded: ok,
      factOutputs: report.facts?.outputs ?? 0,
      factsWritten: report.facts?.written ?? 0,
      factErrors: report.facts?.failed ?? 0,
      modelCalls: counted,
      seconds: Number(seconds.toFixed(2)),
      // CPU time this process spent (the fake model's thread included): when it nears the measured
      // time, the run was CPU-bound (a busy machine), not waiting on the model.
      cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
      // CPU time of cairn's thread per session: what 8 sessions in flight share, one at a time.
      threadMsPerSession:
        threadBefore === undefined || threadAfter === undefined
          ? null
          : Number(((threadAfter - threadBefore) / count).toFixed(1)),
      perSecond: Number((ok / seconds).toFixed(1)),
      idealSeconds: Number(idealSeconds.toFixed(2)),
      efficiency: Number((idealSeconds / seconds).toFixed(3)),
    };
  } finally {
    cairn.close();
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const instant = await measure("instant model", Number(values.sessions), 0);
const slow = await measure(
  `${values.slow} ms model, concurrency ${CONCURRENCY}`,
  Number(values["slow-sessions"]),
  Number(values.slow),
);
const result = { machine: `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}`, itemsPerSession, instant, slow };
if (values.json) console.log(JSON.stringify(result));
else {
  const calls = (m: typeof slow) => `${m.modelCalls.extraction} extraction + ${m.modelCalls.decisions} decision calls`;
  console.log(
    `phase-1 benchmark (cairn extract: phase 1, facts, decisions) on ${result.machine}, ${itemsPerSession} items per session`,
  );
  console.log(
    `  instant model: ${instant.succeeded} sessions in ${instant.seconds}s = ${instant.perSecond} sessions/s, main thread CPU ${instant.threadMsPerSession} ms per session (${calls(instant)}, ${instant.factsWritten} memories written)   target >= 100/s`,
  );
  console.log(
    `  ${values.slow} ms model at concurrency ${CONCURRENCY}: ${slow.succeeded} sessions in ${slow.seconds}s (${calls(slow)}); ideal ${slow.idealSeconds}s; efficiency ${slow.efficiency}   target >= 0.9 (main thread CPU ${slow.threadMsPerSession} ms per session, CPU ${slow.cpuSeconds}s, load average ${loadavg()[0]?.toFixed(1)})`,
  );
}
