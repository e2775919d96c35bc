// Collection benchmark (issue 2): a synthetic tree of Codex and Claude Code session files, a full
// import, then a rescan where nothing changed. Run: npx tsx bench/scan.ts [--files 10000] [--kb 100]

import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cliScan } from "./lib/cliScan.js";

const { values } = parseArgs({
  options: {
    files: { type: "string", default: "10000" },
    kb: { type: "string", default: "100" },
    json: { type: "boolean" },
  },
});
const files = Number(values.files);
const targetBytes = Number(values.kb) * 1024;
const root = join(tmpdir(), `cairn-bench-scan-${process.pid}`);
const codexRoot = join(root, "codex");
const claudeRoot = join(root, "claude");

/**
 * Synthetic files with the shape of real transcripts: Codex writes the user/agent text twice (model
 * history and UI events), encrypted reasoning blobs, token counts and a turn context per turn; Claude
 * Code repeats a metadata envelope on every line and stores thinking blocks with signatures.
 */
function codexFile(index: number): string {
  const id = `0199e1a0-0000-7000-8000-${String(index).padStart(12, "0")}`;
  const t = (n: number) => new Date(Date.UTC(2026, 9, 1, 0, 0, n)).toISOString();
  const cwd = `/srv/bench/project-${index % 50}`;
  const lines: string[] = [
    JSON.stringify({
      timestamp: t(0),
      type: "session_meta",
      payload: {
        id,
        timestamp: t(0),
        cwd,
        originator: "codex_cli_rs",
        cli_version: "0.125.0",
        source: "cli",
        base_instructions: { text: "You are a coding agent. ".repeat(400) },
      },
    }),
  ];
  let bytes = lines[0]!.length;
  let n = 1;
  while (bytes < targetBytes) {
    const ask = `Please run step ${n} of the migration and check the results carefully.`;
    const answer = `Step ${n} is done; all checks pass.`;
    const output = `line of tool output ${n} `.repeat(20);
    const batch = [
      {
        timestamp: t(n),
        type: "turn_context",
        payload: {
          cwd,
          approval_policy: "on-request",
          sandbox_policy: { type: "workspace-write" },
          model: "gpt-5-codex",
          summary: "auto",
        },
      },
      {
        timestamp: t(n),
        type: "response_item",
        payload: { type: "message", role: "user", content: [{ type: "input_text", text: ask }] },
      },
      { timestamp: t(n), type: "event_msg", payload: { type: "user_message", message: ask, images: [] } },
      {
        timestamp: t(n),
        type: "response_item",
        payload: { type: "reasoning", summary: [], encrypted_content: Buffer.alloc(900, n).toString("base64") },
      },
      {
        timestamp: t(n),
        type: "response_item",
        payload: {
          type: "function_call",
          name: "exec_command",
          arguments: JSON.stringify({ cmd: `pnpm test --filter step-${n}`, workdir: cwd }),
          call_id: `c${n}`,
        },
      },
      {
        timestamp: t(n),
        type: "response_item",
        payload: {
          type: "function_call_output",
          call_id: `c${n}`,
          output: `Process exited with code 0\nOutput:\n${output}`,
        },
      },
      {
        timestamp: t(n),
        type: "event_msg",
        payload: {
          type: "token_count",
          info: { total_token_usage: { input_tokens: 1000 * n, output_tokens: 80 * n }, model_context_window: 272000 },
        },
      },
      {
        timestamp: t(n),
        type: "response_item",
        payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: answer }] },
      },
      { timestamp: t(n), type: "event_msg", payload: { type: "agent_message", message: answer } },
    ];
    for (const record of batch) {
      const line = JSON.stringify(record);
      lines.push(line);
      bytes += line.length + 1;
    }
    n += 1;
  }
  return `${lines.join("\n")}\n`;
}

function claudeFile(index: number): string {
  const sessionId = `6a1b2c3d-0000-4000-8000-${String(index).padStart(12, "0")}`;
  const lines: string[] = [];
  let bytes = 0;
  let n = 0;
  let parent: string | null = null;
  while (bytes < targetBytes) {
    const base = {
      parentUuid: parent,
      isSidechain: false,
      userType: "external",
      cwd: `/srv/bench/project-${index % 50}`,
      sessionId,
      version: "2.1.38",
      gitBranch: "main",
      timestamp: new Date(Date.UTC(2026, 9, 2, 0, 0, n)).toISOString(),
    };
    const uuid = `7d0e1f2a-${String(index).padStart(4, "0")}-4000-8000-${String(n).padStart(12, "0")}`;
    const message =
      n % 2 === 0
        ? { role: "user", content: `Request ${n}: refactor the module and keep the public API stable.` }
        : {
            id: `msg_${index}_${n}`,
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-5",
            content: [
              {
                type: "thinking",
                thinking: `Considering request ${n}. `.repeat(10),
                signature: Buffer.alloc(600, n).toString("base64"),
              },
              { type: "text", text: `Done with request ${n}. ${"explanation ".repeat(25)}` },
            ],
            usage: { input_tokens: 3000, cache_read_input_tokens: 20000, output_tokens: 400 },
          };
    const record = {
      ...base,
      uuid,
      type: n % 2 === 0 ? "user" : "assistant",
      message,
      ...(n % 2 ? { requestId: `req_${n}` } : {}),
    };
    parent = uuid;
    const line = JSON.stringify(record);
    lines.push(line);
    bytes += line.length + 1;
    n += 1;
  }
  return `${lines.join("\n")}\n`;
}

function generate(): number {
  rmSync(root, { recursive: true, force: true });
  let total = 0;
  for (let i = 0; i < files; i++) {
    const codex = i % 2 === 0;
    const dir = codex
      ? join(codexRoot, "sessions", "2026", "10", String(1 + (i % 28)).padStart(2, "0"))
      : join(claudeRoot, "projects", `-srv-bench-project-${i % 50}`);
    mkdirSync(dir, { recursive: true });
    const path = codex
      ? join(dir, `rollout-2026-10-01T00-00-00-0199e1a0-0000-7000-8000-${String(i).padStart(12, "0")}.jsonl`)
      : join(dir, `6a1b2c3d-0000-4000-8000-${String(i).padStart(12, "0")}.jsonl`);
    writeFileSync(path, codex ? codexFile(i) : claudeFile(i));
    total += statSync(path).size;
  }
  return total;
}

const generateStart = performance.now();
const bytes = generate();
// The generator's gigabyte is still being written back to disk: flushed first, so that the import is
// not billed for the generator's I/O.
spawnSync("sync");
const generateMs = performance.now() - generateStart;
// HOME points into the bench folder so that no agent's real sessions on this machine are scanned along.
const env = {
  ...process.env,
  HOME: root,
  CAIRN_HOME: join(root, "home"),
  CODEX_HOME: codexRoot,
  CLAUDE_CONFIG_DIR: claudeRoot,
};
const scan = () => cliScan({ sources: [`codex=${codexRoot}`, `claude-code=${claudeRoot}`], env });
const first = scan();
const second = scan();
const result = {
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? "unknown",
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
  files,
  megabytes: Math.round(bytes / 2 ** 20),
  generateSeconds: Number((generateMs / 1000).toFixed(1)),
  import: {
    seconds: Number((first.report.ms / 1000).toFixed(2)),
    mbPerSecond: Number((bytes / 2 ** 20 / (first.report.ms / 1000)).toFixed(1)),
    processSeconds: Number((first.wallMs / 1000).toFixed(2)),
    items: first.report.totals.items,
    imported: first.report.totals.imported,
    problems: first.report.totals.problems,
  },
  rescanUnchanged: {
    ms: Math.round(second.report.ms),
    processMs: Math.round(second.wallMs),
    unchanged: second.report.totals.unchanged,
  },
};
rmSync(root, { recursive: true, force: true });
if (values.json) console.log(JSON.stringify(result));
else {
  const { import: full, rescanUnchanged: rescan } = result;
  console.log(
    `scan benchmark: ${files} files, ${result.megabytes} MB (generated in ${result.generateSeconds}s) on ${result.machine.cpus} x ${result.machine.model}`,
  );
  console.log(
    `  full import: ${full.seconds}s = ${full.mbPerSecond} MB/s (${full.items} items, ${full.problems} problems; whole process ${full.processSeconds}s)   target >= 100 MB/s`,
  );
  console.log(
    `  rescan, nothing changed: ${rescan.ms} ms (${rescan.unchanged} unchanged; whole process ${rescan.processMs} ms)   target < 1000 ms`,
  );
}
