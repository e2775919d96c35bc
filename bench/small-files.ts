// Many-small-transcripts benchmark (issue 16): 3,000 Claude Code sessions of about 30 KB each. In the
// same run it times the floor (every file read and every line JSON-parsed once, in one thread) and a
// full `cairn scan` into a fresh CAIRN_HOME, and reports their ratio: what cairn costs per file beyond
// reading it. Run: npx tsx bench/small-files.ts [--files 3000] [--kb 30] [--runs 1]

import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ScanReport } from "../src/collection/scanner.js";
import { cliScan } from "./lib/cliScan.js";

const { values } = parseArgs({
  options: {
    files: { type: "string", default: "3000" },
    kb: { type: "string", default: "30" },
    runs: { type: "string", default: "1" },
    json: { type: "boolean" },
  },
});
const files = Number(values.files);
const targetBytes = Number(values.kb) * 1024;
const runs = Math.max(1, Number(values.runs));
const root = join(tmpdir(), `cairn-bench-small-${process.pid}`);
const claudeRoot = join(root, "claude");
const PROJECTS = 40;

/** A deterministic pseudo-random stream, so that every run imports the same tree. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const WORDS =
  "the module config parser returns error value test build cache index schema migration request handler user token file path branch commit review function type import export async await promise stream buffer".split(
    " ",
  );
const TOOLS = ["Read", "Bash", "Edit", "Grep", "Glob", "Write"];

function words(next: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(next() * WORDS.length)]!);
  return out.join(" ");
}

/**
 * One session with the shape of a real Claude Code transcript: a summary and file-history snapshots,
 * a metadata envelope repeated on every line, assistant responses split over several lines (thinking
 * with its signature, text, tool calls) sharing one message id, tool results with their
 * `toolUseResult` copy, and the occasional system line (hook summaries).
 */
function claudeSession(index: number): string {
  const next = random(index + 1);
  const sessionId = `6a1b2c3d-0000-4000-8000-${String(index).padStart(12, "0")}`;
  const project = index % PROJECTS;
  const envelope = {
    isSidechain: false,
    userType: "external",
    cwd: `/srv/bench/project-${project}`,
    sessionId,
    version: "2.1.38",
    gitBranch: "main",
  };
  const lines: string[] = [
    JSON.stringify({ type: "summary", summary: `Work on ${words(next, 4)}`, leafUuid: `leaf-${index}` }),
  ];
  let bytes = lines[0]!.length + 1;
  let n = 0;
  let parent: string | null = null;
  let second = 0;
  const push = (record: Record<string, unknown>) => {
    const line = JSON.stringify(record);
    lines.push(line);
    bytes += line.length + 1;
  };
  const line = (fields: Record<string, unknown>) => {
    const uuid = `7d0e1f2a-${String(index % 10000).padStart(4, "0")}-4000-8000-${String(n++).padStart(12, "0")}`;
    const timestamp = new Date(Date.UTC(2026, 9, 2, 0, 0, second++)).toISOString();
    push({ parentUuid: parent, ...envelope, ...fields, uuid, timestamp });
    parent = uuid;
    return uuid;
  };
  let turn = 0;
  while (bytes < targetBytes) {
    const prompt = line({ type: "user", message: { role: "user", content: `Please ${words(next, 12)}.` } });
    push({
      type: "file-history-snapshot",
      messageId: prompt,
      snapshot: { messageId: prompt, trackedFileBackups: {}, timestamp: new Date(0).toISOString() },
      isSnapshotUpdate: false,
    });
    const calls = 1 + Math.floor(next() * 3);
    for (let call = 0; call < calls && bytes < targetBytes; call++) {
      const messageId = `msg_${index}_${turn}_${call}`;
      const assistant = (content: unknown[]) =>
        line({
          type: "assistant",
          requestId: `req_${index}_${turn}_${call}`,
          message: {
            model: "claude-sonnet-4-5",
            id: messageId,
            type: "message",
            role: "assistant",
            content,
            stop_reason: null,
            usage: { input_tokens: 10, cache_read_input_tokens: 20000, output_tokens: 300 },
          },
        });
      if (call === 0)
        assistant([
          {
            type: "thinking",
            thinking: words(next, 40),
            signature: Buffer.alloc(300, index + turn).toString("base64"),
          },
        ]);
      if (next() < 0.5) assistant([{ type: "text", text: `${words(next, 25)}.` }]);
      const tool = TOOLS[Math.floor(next() * TOOLS.length)]!;
      const toolId = `toolu_${index}_${turn}_${call}`;
      assistant([{ type: "tool_use", id: toolId, name: tool, input: { file_path: `src/${words(next, 1)}.ts` } }]);
      const output = `${words(next, 60 + Math.floor(next() * 120))}\n`;
      line({
        type: "user",
        message: { role: "user", content: [{ tool_use_id: toolId, type: "tool_result", content: output }] },
        toolUseResult: { stdout: output, stderr: "", interrupted: false },
      });
    }
    line({
      type: "assistant",
      message: {
        id: `msg_${index}_${turn}_end`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "text", text: `Done: ${words(next, 30)}.` }],
      },
    });
    if (next() < 0.3)
      line({ type: "system", subtype: "stop_hook_summary", hookCount: 1, hookErrors: [], level: "suggestion" });
    turn += 1;
  }
  return `${lines.join("\n")}\n`;
}

function generate(): { bytes: number; paths: string[] } {
  rmSync(root, { recursive: true, force: true });
  let bytes = 0;
  const paths: string[] = [];
  for (let i = 0; i < files; i++) {
    const dir = join(claudeRoot, "projects", `-srv-bench-project-${i % PROJECTS}`);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `6a1b2c3d-0000-4000-8000-${String(i).padStart(12, "0")}.jsonl`);
    writeFileSync(path, claudeSession(i));
    bytes += statSync(path).size;
    paths.push(path);
  }
  return { bytes, paths };
}

/** The floor: list the tree, read every file and JSON.parse every line once, in this one thread. */
function floor(): { ms: number; lines: number } {
  const started = performance.now();
  let lines = 0;
  const projects = join(claudeRoot, "projects");
  for (const folder of readdirSync(projects)) {
    for (const name of readdirSync(join(projects, folder))) {
      const text = readFileSync(join(projects, folder, name), "utf8");
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        if (end > start) {
          JSON.parse(text.slice(start, end));
          lines += 1;
        }
        start = end + 1;
      }
    }
  }
  return { ms: performance.now() - started, lines };
}

/** `cairn scan` as a user runs it, into a fresh CAIRN_HOME. */
function scan(run: number): { report: ScanReport; wallMs: number } {
  const home = join(root, `home-${run}`);
  const result = cliScan({
    sources: [`claude-code=${claudeRoot}`],
    env: { ...process.env, HOME: root, CAIRN_HOME: home, CLAUDE_CONFIG_DIR: claudeRoot },
  });
  rmSync(home, { recursive: true, force: true });
  return result;
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const { bytes } = generate();
// Flushed to disk first, so that neither measurement is billed for the generator's writes.
spawnSync("sync");
const measured: Array<{ floorMs: number; scanMs: number; processMs: number; ratio: number }> = [];
let last: ScanReport | undefined;
for (let run = 0; run < runs; run++) {
  // The floor runs first and the scan reads a warm page cache, as the floor did.
  floor();
  const base = floor();
  const { report, wallMs } = scan(run);
  last = report;
  measured.push({ floorMs: base.ms, scanMs: report.ms, processMs: wallMs, ratio: report.ms / base.ms });
}
rmSync(root, { recursive: true, force: true });
const result = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "unknown", node: process.version },
  files,
  megabytes: Math.round(bytes / 2 ** 20),
  runs: measured.map((run) => ({
    floorMs: Math.round(run.floorMs),
    scanMs: Math.round(run.scanMs),
    processMs: Math.round(run.processMs),
    ratio: Number(run.ratio.toFixed(2)),
  })),
  medianRatio: Number(median(measured.map((run) => run.ratio)).toFixed(2)),
  items: last?.totals.items ?? 0,
  imported: last?.totals.imported ?? 0,
  problems: last?.totals.problems ?? 0,
};
if (values.json) console.log(JSON.stringify(result));
else {
  console.log(
    `small-files benchmark: ${files} Claude Code sessions, ${result.megabytes} MB on ${result.machine.cpus} x ${result.machine.model}`,
  );
  for (const run of result.runs)
    console.log(
      `  floor (read + JSON.parse every line, one thread) ${run.floorMs} ms; cairn scan ${run.scanMs} ms (whole process ${run.processMs} ms): ${run.ratio}x`,
    );
  console.log(
    `  median ratio ${result.medianRatio}x (${result.imported} files imported, ${result.items} items, ${result.problems} problems)   target <= 4x`,
  );
}
