/**
 * Redaction quality and speed: recall on the labelled corpus per rule family, the false-positive
 * rate on ordinary lines, throughput on a few MB of ordinary text, and the slowest adversarial line.
 *
 *   npx tsx bench/redaction.ts          a readable report
 *   npx tsx bench/redaction.ts --json   one JSON object
 */
import { RULES, redact, redactText } from "../src/redact/index.js";
import { adversarialInputs } from "../test/redact/adversarial.js";
import { readLabelled, readTrickyNegatives, sampleOrdinaryLines } from "../test/redact/corpus.js";
import { asFileView, FILE_VIEWS } from "../test/redact/fileViews.js";

interface FamilyRecall {
  examples: number;
  /** Examples where every labelled secret was removed. */
  fullyRedacted: number;
  secrets: number;
  secretsRemoved: number;
  recall: number;
}

function recallByFamily(): Record<string, FamilyRecall> {
  const familyOf = new Map(RULES.map((rule) => [rule.name, rule.family]));
  const families: Record<string, FamilyRecall> = {};
  for (const example of readLabelled()) {
    const family = (example.rule && familyOf.get(example.rule)) || "unlabelled";
    const row = families[family] ?? { examples: 0, fullyRedacted: 0, secrets: 0, secretsRemoved: 0, recall: 0 };
    families[family] = row;
    const text = redactText(example.text);
    const removed = example.secrets.filter((secret) => !text.includes(secret)).length;
    row.examples++;
    row.secrets += example.secrets.length;
    row.secretsRemoved += removed;
    if (removed === example.secrets.length) row.fullyRedacted++;
  }
  for (const row of Object.values(families)) row.recall = row.secretsRemoved / row.secrets;
  return families;
}

/**
 * Recall with the whole corpus shown as each agent's file view (line numbers before every line,
 * see test/redact/fileViews.ts), plain and JSON-serialized; a multi-line secret counts line by line.
 */
function recallInFileViews(): Record<string, number> {
  const examples = readLabelled();
  const out: Record<string, number> = {};
  for (const [name, view] of Object.entries(FILE_VIEWS)) {
    let pieces = 0;
    let removed = 0;
    for (const example of examples) {
      const text = asFileView(example.text, view);
      const plain = redactText(text);
      const json = redactText(JSON.stringify(text));
      for (const piece of example.secrets.flatMap((s) => s.split(/\n|\\n/)).filter((p) => p.length >= 6)) {
        pieces += 2;
        if (!plain.includes(piece)) removed++;
        if (!json.includes(JSON.stringify(piece).slice(1, -1))) removed++;
      }
    }
    out[name] = removed / pieces;
  }
  return out;
}

function falsePositives(lines: string[]): {
  lines: number;
  changed: number;
  rate: number;
  byRule: Record<string, number>;
} {
  const byRule: Record<string, number> = {};
  let changed = 0;
  for (const line of lines) {
    const { findings } = redact(line);
    if (findings.length === 0) continue;
    changed++;
    for (const finding of findings) byRule[finding.rule] = (byRule[finding.rule] ?? 0) + 1;
  }
  return { lines: lines.length, changed, rate: changed / Math.max(1, lines.length), byRule };
}

/** MB/s of `redactText` over `chunks`, best of three runs after a warm-up. */
function throughput(chunks: string[]): number {
  const bytes = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0);
  for (const chunk of chunks.slice(0, 200)) redactText(chunk);
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    for (const chunk of chunks) redactText(chunk);
    best = Math.min(best, performance.now() - start);
  }
  return bytes / 1e6 / (best / 1000);
}

function chunk(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function slowestAdversarial(): { inputs: number; bytesEach: number; worstMs: number; worst: string } {
  const inputs = adversarialInputs(1_000_000);
  let worstMs = 0;
  let worst = "";
  for (const input of inputs) {
    const start = performance.now();
    redactText(input.text);
    const ms = performance.now() - start;
    if (ms > worstMs) [worstMs, worst] = [ms, input.name];
  }
  return { inputs: inputs.length, bytesEach: 1_000_000, worstMs: Math.round(worstMs), worst };
}

function main(): void {
  const json = process.argv.includes("--json");
  const recall = recallByFamily();
  const total = Object.values(recall).reduce(
    (sum, row) => ({ secrets: sum.secrets + row.secrets, removed: sum.removed + row.secretsRemoved }),
    { secrets: 0, removed: 0 },
  );
  const views = recallInFileViews();
  const sample = sampleOrdinaryLines(150_000);
  const ordinary = falsePositives(sample.lines);
  const tricky = falsePositives(readTrickyNegatives());
  const text = sample.lines.join("\n");
  const labelledTexts = readLabelled().map((example) => example.text);
  const speed = {
    megabytes: Buffer.byteLength(text) / 1e6,
    wholeTextMBps: throughput([text]),
    chunks4kMBps: throughput(chunk(text, 4096)),
    perLineMBps: throughput(sample.lines),
    secretDenseMBps: throughput(Array.from({ length: 20 }, () => labelledTexts).flat()),
  };
  const adversarial = slowestAdversarial();
  const report = {
    recall: { overall: total.removed / total.secrets, secrets: total.secrets, byFamily: recall, fileViews: views },
    falsePositives: { ordinary: { ...ordinary, files: sample.files }, trickyNegatives: tricky },
    throughput: speed,
    adversarial,
  };
  if (json) {
    console.log(JSON.stringify(report));
    return;
  }
  const pct = (x: number, digits = 2) => `${(100 * x).toFixed(digits)}%`;
  console.log(`recall: ${pct(report.recall.overall)} of ${total.secrets} labelled secrets`);
  for (const [family, row] of Object.entries(recall).sort()) {
    console.log(
      `  ${family.padEnd(18)} ${pct(row.recall).padStart(8)}  (${row.secretsRemoved}/${row.secrets} secrets, ${row.examples} examples)`,
    );
  }
  console.log("recall with the corpus shown as a file view (plain and JSON-serialized):");
  for (const [name, value] of Object.entries(views)) console.log(`  ${name.padEnd(30)} ${pct(value).padStart(8)}`);
  console.log(
    `false positives: ${ordinary.changed} of ${ordinary.lines} ordinary lines changed (${pct(ordinary.rate, 3)}) from ${sample.files} files in node_modules`,
  );
  for (const [rule, count] of Object.entries(ordinary.byRule)) console.log(`  ${rule}: ${count}`);
  console.log(`  tricky negatives: ${tricky.changed} of ${tricky.lines} changed`);
  console.log(`throughput on ${speed.megabytes.toFixed(1)} MB of ordinary text:`);
  console.log(`  whole text   ${speed.wholeTextMBps.toFixed(1)} MB/s`);
  console.log(`  4 KB chunks  ${speed.chunks4kMBps.toFixed(1)} MB/s`);
  console.log(`  line by line ${speed.perLineMBps.toFixed(1)} MB/s`);
  console.log(`  secret-dense labelled corpus ${speed.secretDenseMBps.toFixed(1)} MB/s`);
  console.log(
    `adversarial: slowest of ${adversarial.inputs} 1 MB lines took ${adversarial.worstMs} ms (${adversarial.worst})`,
  );
}

main();
