/**
 * LoCoMo turn retrieval: every dialogue turn becomes a memory (scope = conversation, ref = dia_id,
 * provenance = session number and turn number), every question of categories 1-4 goes through
 * MemoryStore.recall, and recall@5, recall@10 and MRR of the gold evidence turns are reported per
 * category and overall, next to a plain FTS5 BM25 baseline over the same texts.
 *
 *   npm run bench:locomo [-- --data ../shared/bench/locomo/locomo10-dev.json] [--json]
 *     [--conversations 1,2,3] [--config '{"alpha":0.4}'] [--embeddings hashed|wordvec] [--no-speaker] [--no-caption] [--no-date] [--no-occurred]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultRecallConfig } from "../src/config/recallConfig.js";
import { evaluateLocomo, type LocomoReport } from "./lib/evaluateLocomo.js";
import { type LocomoConversation, loadLocomo } from "./lib/locomoData.js";
import type { Summary } from "./lib/retrievalMetrics.js";
import type { TurnTextOptions } from "./lib/turnText.js";

const DEFAULT_DATA = join(import.meta.dirname, "..", "..", "shared", "bench", "locomo", "locomo10-dev.json");

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: "string" },
      json: { type: "boolean", default: false },
      conversations: { type: "string" },
      config: { type: "string" },
      "no-speaker": { type: "boolean", default: false },
      "no-caption": { type: "boolean", default: false },
      /** Do not prefix the session date to each turn's text. */
      "no-date": { type: "boolean", default: false },
      /** Do not pass the session date as `occurredAt`. */
      "no-occurred": { type: "boolean", default: false },
      dimensions: { type: "string", default: "384" },
      embeddings: { type: "string", default: "hashed" },
      /** Print each question that missed gold turns at k, with the gold turns' text and the top hits. */
      misses: { type: "boolean", default: false },
      /** Print each turn the lifecycle superseded and each pair it flagged, with the reason. */
      lifecycle: { type: "boolean", default: false },
    },
  });
  const data = values.data ?? DEFAULT_DATA;
  if (!existsSync(data)) throw new Error(`no LoCoMo file at ${data}; pass --data <locomo json>`);
  let conversations = loadLocomo(data);
  if (values.conversations) {
    const wanted = values.conversations.split(",").map(Number);
    conversations = conversations.filter((_, i) => wanted.includes(i + 1));
  }
  const textOptions: TurnTextOptions & { occurredAt: boolean } = {
    speaker: !values["no-speaker"],
    caption: !values["no-caption"],
    date: !values["no-date"],
    occurredAt: !values["no-occurred"],
  };
  const report = await evaluateLocomo({
    conversations,
    text: textOptions,
    // LoCoMo's memories are turns of two people talking: the conversation profile, unless --config names one.
    config: defaultRecallConfig({ profile: "conversation", ...(values.config ? JSON.parse(values.config) : {}) }),
    dimensions: Number(values.dimensions),
    embeddings: values.embeddings === "wordvec" ? "wordvec" : "hashed",
    ...(values.misses ? { onMiss: printMiss } : {}),
    ...(values.lifecycle
      ? {
          onRevised: (revised) => {
            for (const s of revised.superseded) console.log(`superseded #${s.oldId} by #${s.newId}: ${s.reason}`);
            for (const f of revised.flagged) console.log(`flagged #${f.memoryId} / #${f.relatedId}: ${f.reason}`);
          },
        }
      : {}),
  });
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ overall: strip(report.overall), categories: mapValues(report.categories, strip), baseline: { overall: strip(report.baseline.overall), categories: mapValues(report.baseline.categories, strip) } })}\n`,
    );
  } else printTable(report);
}

function printMiss(
  conversation: LocomoConversation,
  q: LocomoConversation["questions"][number],
  results: { ref: string | null; content: string; score: number }[],
): void {
  const texts = new Map(
    conversation.sessions.flatMap((s) => s.turns.map((t) => [t.dia_id, `${t.speaker}: ${t.text}`])),
  );
  console.log(`\n[cat ${q.category}] ${q.question}`);
  for (const id of q.evidence) {
    const rank = results.findIndex((r) => r.ref === id);
    console.log(`  gold ${id} ${rank < 0 ? "miss" : `#${rank + 1}`}: ${(texts.get(id) ?? "").slice(0, 140)}`);
  }
  for (const r of results.slice(0, 3)) console.log(`  top ${r.ref} ${r.score.toFixed(3)}: ${r.content.slice(0, 120)}`);
}

function strip(s: Summary): Omit<Summary, "n"> {
  const { n: _n, ...rest } = s;
  return rest;
}

function mapValues<T, U>(record: Record<string, T>, fn: (t: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
}

function printTable(report: LocomoReport): void {
  const row = (name: string, s: Summary | undefined, b: Summary | undefined) =>
    `${name.padEnd(10)} ${String(s?.n ?? 0).padStart(5)}  ${fmt(s)}   |  ${fmt(b)}`;
  const fmt = (s: Summary | undefined) =>
    s
      ? `${s["recall@5"].toFixed(3)}  ${s["recall@10"].toFixed(3)}  ${s.mrr.toFixed(3)}  ${s.p50ms.toFixed(2)}/${s.p95ms.toFixed(2)}`
      : "-";
  console.log(`setup: ${JSON.stringify(report.setup)}`);
  console.log(
    `${"".padEnd(10)} ${"n".padStart(5)}  cairn: R@5    R@10   MRR    p50/p95 ms  |  plain BM25: R@5  R@10  MRR  p50/p95 ms`,
  );
  for (const key of ["1", "2", "3", "4"])
    console.log(row(`cat ${key}`, report.categories[key], report.baseline.categories[key]));
  console.log(row("overall", report.overall, report.baseline.overall));
}

await run();
