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
    const call = (id: number, command: string): ItemRecord => ({
      ...itemRecord(id, "tool_call", JSON.stringify({ cmd: command })),
      callId: `c${id}`,
    });
    const result = (id: number, text: string): ItemRecord => ({
      ...itemRecord(id + 1, "tool_result", text),
      callId: `c${id}`,
      outcomeUnknown: true,
    });
    const runs = commandRuns([
      call(1, "cargo build --release"),
      result(1, "   Compiling kiln v0.3.0"),
      call(3, "cargo test --workspace"),
      result(3, "test result: ok. 48 passed; 0 failed"),
      call(5, "cargo check"),
      result(5, "error[E0425]: cannot find value `GLAZE_TEMP` in this scope"),
    ]);
    expect(runs.map((run) => [run.command, run.outcome])).toEqual([
      ["cargo build --release", "unknown"],
      ["cargo test --workspace", "succeeded"],
      ["cargo check", "failed"],
    ]);
  });
});
