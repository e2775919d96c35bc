// Memory bench (streamed reads): one synthetic Codex rollout of several hundred MB, imported by the
// scanner in this process; prints the file size, the import time and the process's peak RSS. Before
// streaming, a transcript was read whole (a 1 GB file cost 1.1 GB of memory; over 2 GB Node threw).
// Run: npx tsx bench/stream-memory.ts [--mb 600] [--file-only]
// For an external measure: /usr/bin/time -v npx tsx bench/stream-memory.ts (Maximum resident set size).

import { closeSync, mkdirSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createCollector } from "../src/collection/collector.js";
import { scanSources } from "../src/collection/scanner.js";
import { codexAdapter } from "../src/sources/codex.js";
import { Storage } from "../src/store/storage.js";

const { values } = parseArgs({ options: { mb: { type: "string", default: "600" } } });
const targetBytes = Number(values.mb) * 1024 * 1024;
const root = join(tmpdir(), `cairn-bench-stream-${process.pid}`);
const day = join(root, "codex", "sessions", "2026", "10", "01");
const id = "0199e1a0-0000-7000-8000-000000000001";
const path = join(day, `rollout-2026-10-01T00-00-00-${id}.jsonl`);

function writeRollout(): void {
  mkdirSync(day, { recursive: true });
  const fd = openSync(path, "w");
  const t = (n: number) => new Date(Date.UTC(2026, 9, 1) + n * 1000).toISOString();
  const line = (value: unknown) => `${JSON.stringify(value)}\n`;
  writeSync(
    fd,
    line({ timestamp: t(0), type: "session_meta", payload: { id, timestamp: t(0), cwd: "/srv/bench", source: "cli" } }),
  );
  // Tool output as agents write it: a few KB per call, many turns.
  const output = "lorem ipsum dolor sit amet, consectetur adipiscing elit ".repeat(80);
  let written = 0;
  for (let turn = 1; written < targetBytes; turn++) {
    const chunk =
      line({ timestamp: t(turn), type: "event_msg", payload: { type: "user_message", message: `question ${turn}` } }) +
      line({
        timestamp: t(turn),
        type: "response_item",
        payload: { type: "function_call", name: "shell", arguments: '{"command":["ls"]}', call_id: `c${turn}` },
      }) +
      line({
        timestamp: t(turn),
        type: "response_item",
        payload: { type: "function_call_output", call_id: `c${turn}`, output },
      }) +
      line({ timestamp: t(turn), type: "event_msg", payload: { type: "agent_message", message: `answer ${turn}` } });
    writeSync(fd, chunk);
    written += Buffer.byteLength(chunk);
  }
  closeSync(fd);
}

try {
  writeRollout();
  const size = statSync(path).size;
  const storage = Storage.open(join(root, "cairn.db"));
  const collector = createCollector(storage, { maxUnprocessedItems: 5, clock: Date.now });
  const started = Date.now();
  const report = await scanSources({ db: storage.db, files: storage.sourceFiles, collector, clock: Date.now }, [
    { adapter: codexAdapter, roots: [join(root, "codex")] },
  ]);
  const ms = Date.now() - started;
  storage.close();
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    JSON.stringify({
      fileMb: Math.round(size / 1048576),
      items: report.totals.items,
      problems: report.totals.problems,
      seconds: ms / 1000,
      peakRssMb: Math.round(peakMb),
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
