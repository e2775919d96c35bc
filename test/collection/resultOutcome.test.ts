import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { commandRuns } from "../../src/pipeline/phase1/offline/commands.js";
import { codexAdapter } from "../../src/sources/codex.js";
import type { ItemRecord } from "../../src/store/types/sessionRecord.js";
import { itemRecord } from "../helpers/itemRecord.js";
import { memoryScan } from "../helpers/memoryScan.js";
import { tempDir } from "../helpers/tempDir.js";

const THREAD = "019a0c0d-5eed-7c0d-8e0d-c0dece11c0de";
const FIXTURE = fileURLToPath(
  new URL(`../fixtures/codex/rollout-2026-07-20T09-00-00-${THREAD}.jsonl`, import.meta.url),
);

async function storedItems(): Promise<ItemRecord[]> {
  const home = tempDir("cairn-outcome-");
  const day = join(home, "sessions", "2026", "07", "20");
  mkdirSync(day, { recursive: true });
  writeFileSync(join(day, `rollout-2026-07-20T09-00-00-${THREAD}.jsonl`), readFileSync(FIXTURE));
  const { items } = await memoryScan(codexAdapter, [home]);
  return items.list(THREAD);
}

/** Call `id` of `tool` with `text`, and its result (item `id + 1`). */
const call = (id: number, text: string, tool = "exec_command"): ItemRecord => ({
  ...itemRecord(id, "tool_call", text),
  tool,
  callId: `c${id}`,
});
const result = (id: number, text: string, fields: Partial<ItemRecord> = {}): ItemRecord => ({
  ...itemRecord(id + 1, "tool_result", text),
  callId: `c${id}`,
  ...fields,
});

describe("a tool result's outcome in the store", () => {
  it("keeps worked, failed and unknown apart: a code-mode cell without an exit code is not stored as a success", async () => {
    const outcomes = (await storedItems())
      .filter((item) => item.role === "tool_result")
      .map((item) => [item.callId, item.isError ? "failed" : item.outcomeUnknown ? "unknown" : "worked"]);
    expect(outcomes).toEqual([
      ["call_k1", "unknown"],
      ["call_k2", "failed"],
      ["call_k3", "failed"],
      ["call_k4", "unknown"],
      ["call_k4", "worked"],
      ["call_k5", "worked"],
      ["call_k6", "unknown"],
    ]);
  });

  it("makes a command with an unknown outcome neither worked nor failed unless its output says so", () => {
    const shell = (id: number, command: string) => call(id, JSON.stringify({ cmd: command }));
    const unknown = { outcomeUnknown: true };
    const runs = commandRuns([
      shell(1, "cargo build --release"),
      result(1, "   Compiling kiln v0.3.0", unknown),
      shell(3, "cargo test --workspace"),
      result(3, "test result: ok. 48 passed; 0 failed", unknown),
      shell(5, "cargo check"),
      result(5, "error[E0425]: cannot find value `GLAZE_TEMP` in this scope", unknown),
    ]);
    expect(runs.map((run) => [run.command, run.outcome])).toEqual([
      ["cargo build --release", "unknown"],
      ["cargo test --workspace", "succeeded"],
      ["cargo check", "failed"],
    ]);
  });

  it("reads the commands a code-mode cell runs, each with the outcome its cell showed", async () => {
    const runs = commandRuns(await storedItems(), "/home/dev/kiln");
    expect(runs.map((run) => [run.command, run.outcome])).toEqual([
      // No exit code printed, but a compiler error in what it printed.
      ["cargo build --release", "failed"],
      ["cargo test -p kiln-fire", "failed"],
      // The wait on its running cell brought exit code 0.
      ["cargo test --workspace", "succeeded"],
      ["git status --short", "unknown"],
      // Terminated before it finished: neither.
      ["cargo bench", "unknown"],
    ]);
  });

  it("leaves the commands of a cell that ran several, or one built at run time, without an outcome", () => {
    const cell = (id: number, source: string) => call(id, source, "exec");
    const worked = (id: number, text: string) => result(id, text, { tool: "exec" });
    const runs = commandRuns([
      cell(
        1,
        "const a = await tools.exec_command({ cmd: \"npm run build\" });\nconst b = await tools.exec_command({ cmd: 'npm test' });\ntext(b.output);",
      ),
      worked(1, "Process exited with code 0"),
      cell(3, 'for (const c of ["npm run lint"]) await tools.exec_command({ cmd: c });'),
      worked(3, "Process exited with code 0"),
      cell(5, 'const r = await tools.exec_command({"workdir": "/w", "cmd": "npm run check"});\ntext(r.output);'),
      worked(5, "Process exited with code 0"),
    ]);
    expect(runs.map((run) => [run.command, run.outcome])).toEqual([
      ["npm run build", "unknown"],
      ["npm test", "unknown"],
      ["npm run check", "succeeded"],
    ]);
  });
});
