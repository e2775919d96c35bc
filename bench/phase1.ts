// Phase-1 benchmark (issue 3): sessions per second end to end with an instant fake provider, and
// with a provider that answers in 200 ms at concurrency 8 (ideal: 40 sessions/s).
// Run: npx tsx bench/phase1.ts [--sessions 500] [--items 200]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Collector } from "../src/collection/collector.js";
import { validateConfig } from "../src/config/load.js";
import { runPhase1 } from "../src/pipeline/phase1/runPhase1.js";
import type { LlmProvider, LlmRequest, LlmResult } from "../src/providers/llm/types.js";
import type { SessionItem } from "../src/sources/types.js";
import { Storage } from "../src/store/storage.js";
import { withWriteTx } from "../src/store/tx.js";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "500" },
    slow: { type: "string", default: "200" },
    items: { type: "string", default: "200" },
    json: { type: "boolean" },
  },
});
const DAY = 86_400_000;

/** A provider that answers a valid stage-1 object after `delayMs`, like a real one minus the network. */
function provider(delayMs: number): LlmProvider {
  return {
    name: "bench",
    model: `delay-${delayMs}`,
    available: async () => true,
    async generate(request: LlmRequest): Promise<LlmResult> {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const id = Number(/"id":(\d+)/.exec(request.prompt)?.[1] ?? 1);
      const text = JSON.stringify({
        rollout_summary: "The user migrated the module; tests pass.",
        rollout_slug: "migrate-module",
        raw_memory: "## Procedures\n- pnpm test works",
        facts: [
          {
            content: "The project runs its tests with pnpm test.",
            type: "procedural",
            confidence: 0.8,
            evidence: [id],
          },
        ],
        entities: [{ source: "project", relationship: "uses", target: "pnpm", confidence: 0.8 }],
      });
      return {
        text,
        usage: { inputTokens: Math.round(request.prompt.length / 4), outputTokens: 80 },
        provider: "bench",
        model: "bench",
        warnings: [],
      };
    },
  };
}

function seed(count: number, itemsPerSession: number): { storage: Storage; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "cairn-bench-p1-"));
  const now = Date.now();
  const storage = Storage.open(join(dir, "cairn.db"), { queue: { leaseMs: 600_000 } });
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
  return { storage, dir };
}

async function measure(label: string, count: number, delayMs: number) {
  const { storage, dir } = seed(count, Number(values.items));
  const config = validateConfig({
    memories: { maxRolloutsPerStartup: count },
    extraction: { concurrency: 8, scanLimit: count, runningCap: count },
  });
  const started = performance.now();
  const report = await runPhase1({ storage, config, clock: Date.now, llm: provider(delayMs) });
  const seconds = (performance.now() - started) / 1000;
  const ok = report.jobs.filter((job) => job.outcome === "succeeded").length;
  storage.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    label,
    sessions: count,
    succeeded: ok,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Number((ok / seconds).toFixed(1)),
  };
}

const instant = await measure("instant provider", Number(values.sessions), 0);
const slowCount = 200;
const slow = await measure(`${values.slow} ms provider, concurrency 8`, slowCount, Number(values.slow));
const ideal = (8 * 1000) / Number(values.slow);
const result = {
  machine: `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}`,
  itemsPerSession: Number(values.items),
  instant,
  slow: { ...slow, ideal, ofIdeal: Number((slow.perSecond / ideal).toFixed(3)) },
};
if (values.json) console.log(JSON.stringify(result));
else {
  console.log(`phase-1 benchmark on ${result.machine}, ${result.itemsPerSession} items per session`);
  console.log(
    `  instant provider: ${instant.succeeded} sessions in ${instant.seconds}s = ${instant.perSecond} sessions/s   target >= 100/s`,
  );
  console.log(
    `  ${values.slow} ms provider at concurrency 8: ${slow.perSecond} sessions/s = ${(result.slow.ofIdeal * 100).toFixed(1)}% of the ideal ${ideal}/s   target >= 90%`,
  );
}
