import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { codex as codexAgent } from "../../src/agents/codex/descriptor.js";
import type { ReadResult } from "../../src/sources/adapter.js";
import {
  droppedRecord,
  nodeZstd,
  readRolloutRecords,
  ZSTD_UNSUPPORTED,
} from "../../src/sources/codex/readRolloutRecords.js";
import { sessionKind } from "../../src/sources/codex/sessionMeta.js";
import { codexAdapter } from "../../src/sources/codex.js";
import type { SessionItem } from "../../src/sources/types.js";
import { expectItemsLocated } from "../helpers/expectItemsLocated.js";
import { tempDir as newTempDir } from "../helpers/tempDir.js";
import { type ContractRecord, MALFORMED_LINE, mergeByKey, runAdapterContract, stored } from "./adapterContract.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/codex/", import.meta.url));
const SHOP = "0199c0de-1111-7222-8333-944455556666";
const fixture = (name: string): string => join(FIXTURES, name);
const MAIN = fixture(`rollout-2026-03-04T09-15-00-${SHOP}.jsonl`);
const ROLLBACK = fixture("rollout-2026-03-04T10-00-00-0199c0de-2222-7333-8444-955566667777.jsonl");
const LEGACY = fixture("rollout-2025-07-20T10-00-00-0198aaaa-bbbb-7ccc-8ddd-eeeeffff0000.jsonl");

const read = (path: string, resume?: ReadResult["resume"]): Promise<ReadResult> =>
  codexAdapter.read({ file: { path, agent: "codex" }, ...(resume ? { resume } : {}) });

async function itemsOf(path: string): Promise<SessionItem[]> {
  return (await read(path)).sessions[0]?.items ?? [];
}

const summary = (items: SessionItem[]): string[] => items.map((item) => `${item.role}: ${item.text}`);

function tempDir(): string {
  return newTempDir("cairn-codex-test-");
}

const CONTRACT_THREAD = "0199c0de-0000-7000-8000-00000000c0de";

/** A session_meta line, then one event line per record. */
function rolloutLines(records: readonly ContractRecord[]): string {
  const at = (second: number) => new Date(Date.UTC(2026, 2, 4, 8, 0, second)).toISOString();
  const meta = {
    id: CONTRACT_THREAD,
    timestamp: at(0),
    cwd: "/home/dev/app",
    originator: "codex_cli_rs",
    source: "cli",
  };
  const lines = [JSON.stringify({ timestamp: at(0), type: "session_meta", payload: meta })];
  records.forEach((record, index) => {
    const timestamp = at(index + 1);
    if (record.kind === "malformed") lines.push(MALFORMED_LINE);
    else if (record.kind === "unknown") lines.push(JSON.stringify({ timestamp, type: "future_record", payload: {} }));
    else {
      const type = record.kind === "user" ? "user_message" : "agent_message";
      lines.push(JSON.stringify({ timestamp, type: "event_msg", payload: { type, message: record.text } }));
    }
  });
  return lines.map((line) => `${line}\n`).join("");
}

runAdapterContract("codex", {
  adapter: codexAdapter,
  file: `rollout-2026-03-04T09-00-00-${CONTRACT_THREAD}.jsonl`,
  write: (path, records) => writeFileSync(path, rolloutLines(records)),
});

describe("codex adapter: current rollouts", () => {
  it("takes user and assistant text from events, never the injected context", async () => {
    const items = await itemsOf(MAIN);
    expect(summary(items.filter((item) => item.role === "user" || item.role === "assistant"))).toEqual([
      "user: Why does checkout round totals down?",
      "assistant: Checking how totals are computed.",
      "assistant: Totals used Math.floor; they now round to cents.",
      "user: Now show the discount in the cart summary.",
      "assistant: There is no cart component folder yet; I will create one.",
    ]);
    const all = items.map((item) => item.text).join("\n");
    for (const injected of ["AGENTS.md", "<environment_context>", "permissions instructions", "encrypted"]) {
      expect(all).not.toContain(injected);
    }
  });

  it("pairs tool calls with their outputs by call_id and tells failures from successes", async () => {
    const tools = (await itemsOf(MAIN)).filter((item) => item.role === "tool_call" || item.role === "tool_result");
    expect(tools.map((item) => [item.role, item.tool, item.callId, item.isError, item.text])).toEqual([
      ["tool_call", "exec_command", "call_rg", undefined, 'rg -n "Math.floor" src'],
      ["tool_result", "exec_command", "call_rg", false, "src/cart.ts:14:  return Math.floor(sum);"],
      ["tool_call", "exec_command", "call_test", undefined, "npm test -- cart"],
      ["tool_result", "exec_command", "call_test", true, "FAIL src/cart.test.ts\n  expected 10.5, got 10"],
      [
        "tool_call",
        "apply_patch",
        "call_patch",
        undefined,
        expect.stringContaining("+  return Math.round(sum * 100) / 100;"),
      ],
      ["tool_result", "apply_patch", "call_patch", false, "Success. Updated the following files:\nM src/cart.ts"],
      ["tool_call", "web_search", undefined, undefined, "javascript round to cents"],
      ["tool_call", "local_shell", "call_ls", undefined, "ls src/components/cart"],
      ["tool_result", "local_shell", "call_ls", true, "(no output, exit code 2)"],
    ]);
  });

  it("keeps one compaction item and does not re-import the replacement history", async () => {
    const items = await itemsOf(MAIN);
    expect(items.filter((item) => item.role === "compaction").map((item) => item.text)).toEqual([
      "Summary: checkout rounded totals down with Math.floor; it now rounds to cents.",
    ]);
    expect(items.filter((item) => item.text === "Why does checkout round totals down?")).toHaveLength(1);
  });

  it("describes the session from session_meta and the latest turn_context", async () => {
    const result = await read(MAIN);
    expect(result.sessions[0]?.session).toEqual({
      id: SHOP,
      agent: "codex",
      kind: "interactive",
      cwd: "/home/dev/shop/web",
      git: {
        branch: "feat/discounts",
        commit: "4f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6",
        remote: "git@github.com:dev/shop.git",
      },
      startedAt: Date.parse("2026-03-04T07:15:00.000Z"),
      updatedAt: Date.parse("2026-03-04T07:17:03.000Z"),
    });
  });

  it("reports a malformed line with its number, counts unknown records as skipped, and locates every item", async () => {
    const result = await read(MAIN);
    expect(result.problems).toEqual([{ file: MAIN, line: 20, reason: expect.stringContaining("malformed JSON") }]);
    // task events, token counts, reasoning, the developer message, duplicated response messages, world_state
    expect(result.skipped).toBe(12);
    expectItemsLocated(result.sessions[0]?.items ?? [], MAIN);
  });
});

describe("codex adapter: history rewrites and resume", () => {
  it("drops the rolled-back turn, its tool calls included", async () => {
    expect(summary(await itemsOf(ROLLBACK))).toEqual([
      "user: Add a --verbose flag.",
      "assistant: Added --verbose.",
      "user: Instead, make --verbose take a level.",
      "assistant: --verbose now takes a level from 0 to 2.",
    ]);
  });

  it("asks for a whole-file read when a resumed read meets a rollback", async () => {
    const path = join(tempDir(), basename(ROLLBACK));
    const lines = readFileSync(ROLLBACK, "utf8").split(/(?<=\n)/);
    writeFileSync(path, lines.slice(0, 7).join(""));
    const first = await read(path);
    expect(summary(first.sessions[0]?.items ?? [])).toContain("user: Also add --quiet.");
    appendFileSync(path, lines.slice(7).join(""));
    const second = await read(path, first.resume);
    expect(second.needsFullRead).toBe(true);
    expect(second.sessions).toEqual([]);
  });

  it("continues from any offset with the same items and session as a whole-file read", async () => {
    const path = join(tempDir(), basename(MAIN));
    const lines = readFileSync(MAIN, "utf8").split(/(?<=\n)/);
    writeFileSync(path, lines.join(""));
    const full = await read(path);
    for (let cut = 1; cut < lines.length; cut += 1) {
      writeFileSync(path, lines.slice(0, cut).join(""));
      const first = await read(path);
      appendFileSync(path, lines.slice(cut).join(""));
      // No resume means a whole-file read.
      const second = await read(path, stored(first.resume));
      if (second.needsFullRead) {
        // Only before the first agent_message event (line 10) can the text source still change.
        expect(cut).toBeLessThan(10);
        continue;
      }
      expect(mergeByKey(first.sessions[0]?.items ?? [], second.sessions[0]?.items ?? [])).toEqual(
        full.sessions[0]?.items,
      );
      expect(second.sessions[0]?.session).toEqual(full.sessions[0]?.session);
    }
  });

  it("reads the whole file again when the stored state is not one it understands", async () => {
    const result = await read(MAIN, { offset: 100, line: 1, state: { v: 0, stale: true } });
    expect(result.sessions[0]?.partial).toBeUndefined();
    expect(result.sessions[0]?.items).toEqual(await itemsOf(MAIN));
  });
});

/**
 * Unified exec (Codex 0.1xx): `exec_command` answers after a short wait with "Process running with
 * session ID N" and no output, `write_stdin` polls collect the output, and `exec_command_end` (persisted
 * in extended mode) carries the command's exit code and everything it printed. A command that ended
 * before the wait answers with its exit code at once; its end event repeats it.
 */
function unifiedExecRollout(): string[] {
  const at = (second: number) => new Date(Date.UTC(2026, 4, 11, 9, 0, second)).toISOString();
  const meta = { id: "0199e1e1-0000-7000-8000-00000000e1e1", timestamp: at(0), cwd: "/home/dev/app", source: "cli" };
  const records: Array<[string, Record<string, unknown>]> = [
    ["session_meta", meta],
    ["event_msg", { type: "user_message", message: "Run the cart tests." }],
    [
      "response_item",
      { type: "function_call", name: "exec_command", call_id: "c1", arguments: '{"cmd":"npm test -- cart"}' },
    ],
    [
      "response_item",
      {
        type: "function_call_output",
        call_id: "c1",
        output:
          "Chunk ID: a1\nWall time: 1.0 seconds\nProcess running with session ID 41\nOriginal token count: 5\nOutput:\n> app@1.0.0 test\n",
      },
    ],
    ["response_item", { type: "function_call", name: "write_stdin", call_id: "c2", arguments: '{"session_id":41}' }],
    [
      "response_item",
      {
        type: "function_call_output",
        call_id: "c2",
        output: "Chunk ID: a2\nProcess exited with code 1\nOutput:\nFAIL cart.test.ts\n",
      },
    ],
    [
      "event_msg",
      {
        type: "exec_command_end",
        call_id: "c1",
        command: ["/bin/zsh", "-lc", "npm test -- cart"],
        exit_code: 1,
        aggregated_output: "> app@1.0.0 test\n> vitest cart\n\nFAIL cart.test.ts\n  expected 10.5, got 10\n",
        status: "failed",
      },
    ],
    [
      "response_item",
      { type: "function_call", name: "exec_command", call_id: "c3", arguments: '{"cmd":"git status --short"}' },
    ],
    [
      "response_item",
      {
        type: "function_call_output",
        call_id: "c3",
        output: "Chunk ID: a3\nProcess exited with code 0\nOutput:\n M cart.ts\n",
      },
    ],
    ["event_msg", { type: "exec_command_end", call_id: "c3", exit_code: 0, aggregated_output: " M cart.ts\n" }],
  ];
  return records.map(([type, payload], i) => `${JSON.stringify({ timestamp: at(i), type, payload })}\n`);
}

describe("codex adapter: unified exec", () => {
  const results = (items: SessionItem[]) =>
    items
      .filter((item) => item.role === "tool_result")
      .map((item) => [item.tool, item.callId, item.isError, item.text]);
  const expected = [
    // What it printed before the wait ended, marked as not a result.
    ["exec_command", "c1", undefined, "Process running with session ID 41\n> app@1.0.0 test"],
    ["write_stdin", "c2", true, "FAIL cart.test.ts"],
    ["exec_command", "c1", true, "> app@1.0.0 test\n> vitest cart\n\nFAIL cart.test.ts\n  expected 10.5, got 10"],
    ["exec_command", "c3", false, "M cart.ts"],
  ];

  it("takes a still-running command's result, exit code included, from its exec_command_end", async () => {
    const path = join(tempDir(), "rollout-2026-05-11T09-00-00-0199e1e1-0000-7000-8000-00000000e1e1.jsonl");
    writeFileSync(path, unifiedExecRollout().join(""));
    expect(results(await itemsOf(path))).toEqual(expected);
  });

  it("finds the end of a command that was still running where the last read stopped", async () => {
    const path = join(tempDir(), "rollout-2026-05-11T09-00-00-0199e1e1-0000-7000-8000-00000000e1e1.jsonl");
    const lines = unifiedExecRollout();
    writeFileSync(path, lines.slice(0, 5).join(""));
    const first = await read(path);
    appendFileSync(path, lines.slice(5).join(""));
    const second = await read(path, stored(first.resume));
    expect(results(mergeByKey(first.sessions[0]?.items ?? [], second.sessions[0]?.items ?? []))).toEqual(expected);
  });
});

describe("codex adapter: legacy rollouts", () => {
  it("reads the pre-envelope format without its injected context", async () => {
    const result = await read(LEGACY);
    const session = result.sessions[0];
    expect(session?.session).toMatchObject({
      id: "0198aaaa-bbbb-7ccc-8ddd-eeeeffff0000",
      kind: "interactive",
      cwd: null,
      git: { branch: "main", remote: "https://github.com/dev/cli-tool" },
      startedAt: Date.parse("2025-07-20T08:00:00.000Z"),
    });
    expect(session?.items.map((item) => [item.role, item.tool, item.isError, item.text])).toEqual([
      ["user", undefined, undefined, "Fix the failing lint step."],
      ["tool_call", "shell", undefined, "npm run lint"],
      ["tool_result", "shell", true, "src/a.ts: 'x' is unused"],
      ["assistant", undefined, undefined, "Removed the unused variable; lint passes."],
    ]);
    // Legacy items carry no time of their own.
    expect(session?.items.every((item) => item.ts === undefined)).toBe(true);
    expect(result.problems).toEqual([]);
  });
});

describe("codex adapter: session kinds", () => {
  it.each([
    ["rollout-2026-03-04T09-16-00-0199c0de-3333-7444-8555-a66677778888.jsonl", "subagent", SHOP],
    ["rollout-2026-03-05T03-00-00-0199c0de-4444-7555-8666-b77788889999.jsonl", "internal", undefined],
    ["rollout-2026-03-05T08-00-00-0199c0de-5555-7666-8777-c88899990000.jsonl", "exec", undefined],
  ])("%s is %s", async (name, kind, parentId) => {
    const session = (await read(fixture(name))).sessions[0]?.session;
    expect(session?.kind).toBe(kind);
    expect(session?.parentId).toBe(parentId);
  });

  it.each([
    [{ source: "cli" }, { kind: "interactive" }],
    [{ source: "vscode", originator: "codex_vscode" }, { kind: "interactive" }],
    [{ source: "cli", originator: "codex_exec" }, { kind: "exec" }],
    [{ source: { subagent: "review" } }, { kind: "subagent" }],
    [{ source: { subagent: "compact" } }, { kind: "subagent" }],
    [{ source: { subagent: { other: "custom" } } }, { kind: "subagent" }],
    [{ source: { subagent: "memory_consolidation" } }, { kind: "internal" }],
    [{ source: { internal: "memory_consolidation" } }, { kind: "internal" }],
    [
      { source: "cli", thread_source: "subagent", parent_thread_id: "p-1" },
      { kind: "subagent", parentId: "p-1" },
    ],
    [
      { source: { subagent: { thread_spawn: { parent_thread_id: "p-2", depth: 1 } } } },
      { kind: "subagent", parentId: "p-2" },
    ],
  ])("source %j gives %j", (payload, expected) => {
    expect(sessionKind(payload)).toEqual(expected);
  });

  it("falls back to the uuid in the file name when no session_meta names the session", async () => {
    const path = join(tempDir(), "rollout-2026-03-06T08-00-00-0199dddd-0000-7000-8000-000000000042.jsonl");
    writeFileSync(
      path,
      `${JSON.stringify({ timestamp: "2026-03-06T06:00:00.000Z", type: "event_msg", payload: { type: "user_message", message: "hi" } })}\n`,
    );
    const session = (await read(path)).sessions[0]?.session;
    expect(session?.id).toBe("0199dddd-0000-7000-8000-000000000042");
    expect(session?.startedAt).toBe(Date.parse("2026-03-06T06:00:00.000Z"));
  });
});

describe("codex adapter: files and roots", () => {
  it("uses $CODEX_HOME, else ~/.codex", () => {
    expect(codexAgent.sessionFolders({ CODEX_HOME: "/opt/codex" }, "/home/dev")).toEqual(["/opt/codex"]);
    expect(codexAgent.sessionFolders({}, "/home/dev")).toEqual([join("/home/dev", ".codex")]);
    expect(codexAgent.sessionFolders({ CODEX_HOME: "" }, "/home/dev")).toEqual([join("/home/dev", ".codex")]);
  });

  it("finds dated and archived rollouts, preferring a plain file over its compressed twin", async () => {
    const home = tempDir();
    const day = join(home, "sessions", "2026", "03", "04");
    mkdirSync(day, { recursive: true });
    mkdirSync(join(home, "archived_sessions"));
    const files = [
      join(day, "rollout-2026-03-04T09-15-00-a.jsonl"),
      join(day, "rollout-2026-03-04T09-15-00-a.jsonl.zst"),
      join(day, "rollout-2026-03-04T11-00-00-b.jsonl.zst"),
      join(home, "archived_sessions", "rollout-2026-02-01T08-00-00-c.jsonl"),
      join(home, "history.jsonl"),
      join(home, "session_index.jsonl"),
      join(day, "notes.jsonl"),
    ];
    for (const file of files) writeFileSync(file, "");
    const found = (await codexAdapter.discover(home)).map((file) => file.path).sort();
    expect(found).toEqual([files[3], files[0], files[2]].sort());
    expect(await codexAdapter.discover(join(home, "missing"))).toEqual([]);
  });

  it("reads a .jsonl.zst rollout when this Node has zstd, and otherwise says why it skipped it", async () => {
    const path = join(tempDir(), `rollout-2026-03-04T09-15-00-${SHOP}.jsonl.zst`);
    const zstd = nodeZstd();
    if (zstd === undefined) {
      writeFileSync(path, "not really zstd");
      const result = await read(path);
      expect(result.problems).toEqual([{ file: path, reason: ZSTD_UNSUPPORTED }]);
      expect(result.sessions).toEqual([]);
      return;
    }
    const compress = (zlib as unknown as { zstdCompressSync: (data: Buffer) => Buffer }).zstdCompressSync;
    writeFileSync(path, compress(readFileSync(MAIN)));
    const result = await read(path);
    expect(result.sessions[0]?.items.map((item) => item.text)).toEqual((await itemsOf(MAIN)).map((item) => item.text));
    expect(result.resume).toBeUndefined();
  });

  it("decodes compressed rollouts whole and reports their problems against the compressed file", () => {
    const path = join(tempDir(), "rollout-x.jsonl.zst");
    writeFileSync(path, readFileSync(MAIN));
    const result = readRolloutRecords(path, { decompress: (data) => data });
    if (!result.ok) throw new Error(result.problem.reason);
    expect(result.compressed).toBe(true);
    expect(result.read.records).toHaveLength(30);
    expect(result.read.problems.map((problem) => [problem.file, problem.line])).toEqual([[path, 20]]);
  });
});

describe("droppedRecord", () => {
  const at = "2026-03-04T09:15:02.345Z";
  const line = (record: unknown) => JSON.stringify(record);

  it("stands in for encrypted reasoning and token counts with their time and types", () => {
    const reasoning = line({
      timestamp: at,
      type: "response_item",
      payload: { type: "reasoning", summary: [], encrypted_content: "gAAAA".repeat(200) },
    });
    const tokens = line({ timestamp: at, type: "event_msg", payload: { type: "token_count", info: null } });
    expect(droppedRecord(reasoning)).toEqual({ timestamp: at, type: "response_item", payload: { type: "reasoning" } });
    expect(droppedRecord(tokens)).toEqual({ timestamp: at, type: "event_msg", payload: { type: "token_count" } });
  });

  it("parses everything else, including text that quotes a dropped record", () => {
    const quoted = '{"timestamp":"x","type":"response_item","payload":{"type":"reasoning"}}';
    const message = line({ timestamp: at, type: "event_msg", payload: { type: "user_message", message: quoted } });
    expect(droppedRecord(message)).toBeUndefined();
    expect(
      droppedRecord(line({ timestamp: at, type: "response_item", payload: { type: "token_count" } })),
    ).toBeUndefined();
    expect(droppedRecord(line({ timestamp: at, type: "event_msg", payload: { type: "reasoning" } }))).toBeUndefined();
    expect(
      droppedRecord(line({ type: "response_item", timestamp: at, payload: { type: "reasoning" } })),
    ).toBeUndefined();
    expect(
      droppedRecord(`${line({ timestamp: at, type: "event_msg", payload: { type: "token_count" } })} x`),
    ).toBeUndefined();
  });

  it("agrees with a full parse on every line of the fixtures it stands in for", () => {
    let stood = 0;
    for (const name of readdirSync(FIXTURES)) {
      for (const text of readFileSync(fixture(name), "utf8").split("\n")) {
        const standIn = droppedRecord(text) as
          | { timestamp: string; type: string; payload: { type: string } }
          | undefined;
        if (standIn === undefined) continue;
        stood += 1;
        const parsed = JSON.parse(text) as typeof standIn;
        expect(standIn).toEqual({
          timestamp: parsed.timestamp,
          type: parsed.type,
          payload: { type: parsed.payload.type },
        });
      }
    }
    expect(stood).toBeGreaterThan(0);
  });

  it("leaves a torn dropped record at the end of a file for the next read", async () => {
    const dir = tempDir();
    const path = join(dir, `rollout-2026-03-04T09-15-00-${SHOP}.jsonl`);
    const full = `${readFileSync(MAIN, "utf8").trimEnd()}\n`;
    const reasoning = line({ timestamp: at, type: "response_item", payload: { type: "reasoning", summary: [] } });
    writeFileSync(path, `${full}${reasoning.slice(0, -1)}`);
    const first = await read(path);
    writeFileSync(path, `${full}${reasoning}\n`);
    const whole = await read(path);
    expect(first.resume?.offset).toBe(Buffer.byteLength(full));
    expect(whole.skipped).toBe(first.skipped + 1);
  });
});

describe("codex adapter: code-mode exec cells (0.144 and later)", () => {
  // Shapes: codex-rs/core/src/tools/code_mode/mod.rs (openai/codex 68a699f6): the status header of a cell's
  // output, the `success` flag that is never written to the rollout, `wait` on a running cell's id.
  const CELLS = fixture("rollout-2026-07-20T09-00-00-019a0c0d-5eed-7c0d-8e0d-c0dece11c0de.jsonl");
  const outcome = (item: SessionItem) =>
    item.isError === true ? "failed" : item.outcomeUnknown ? "unknown" : "worked";

  it("tells a failed cell from a worked one only by what the cell carries, else says unknown", async () => {
    const results = (await itemsOf(CELLS))
      .filter((item) => item.role === "tool_result")
      .map((item) => [item.callId, item.tool, outcome(item), item.text.split("\n")[0]]);
    expect(results).toEqual([
      // Printed only `r.output`: no exit code, whatever the text says.
      ["call_k1", "exec", "unknown", "Compiling kiln v0.3.0 (/home/dev/kiln)"],
      // Printed the whole result object: its exit_code.
      ["call_k2", "exec", "failed", expect.stringContaining('"exit_code":101')],
      // The script threw.
      ["call_k3", "exec", "failed", "Script error:"],
      // Still running: not a result; the `wait` on its cell brings it, filed under the cell's call.
      ["call_k4", "exec", "unknown", "Script running with cell ID 12"],
      ["call_k4", "exec", "worked", expect.stringContaining('"exit_code":0')],
      ["call_k5", "exec", "worked", "Process exited with code 0"],
      ["call_k6", "exec", "unknown", "Script terminated"],
    ]);
  });

  it("keeps the cell's code as the call and the header out of the result", async () => {
    const items = await itemsOf(CELLS);
    const call = items.find((item) => item.role === "tool_call" && item.callId === "call_k1");
    expect(call?.tool).toBe("exec");
    expect(call?.text).toContain("cargo build --release");
    const results = items.filter((item) => item.role === "tool_result");
    expect(results.some((item) => /Wall time|^Output:/m.test(item.text))).toBe(false);
    // The `wait` call itself stays, as a call.
    expect(items.find((item) => item.callId === "call_w1")).toMatchObject({ role: "tool_call", tool: "wait" });
  });

  it("files a waited cell's result under its exec call when the wait comes after a resumed read", async () => {
    const path = join(tempDir(), basename(CELLS));
    const lines = readFileSync(CELLS, "utf8").split(/(?<=\n)/);
    const cut = lines.findIndex((line) => line.includes('"name":"wait"'));
    writeFileSync(path, lines.slice(0, cut).join(""));
    const first = await read(path);
    appendFileSync(path, lines.slice(cut).join(""));
    const second = await read(path, stored(first.resume));
    const waited = (second.sessions[0]?.items ?? []).find((item) => item.role === "tool_result");
    expect(waited).toMatchObject({ callId: "call_k4", tool: "exec", isError: false });
  });
});

describe("codex adapter: compaction records", () => {
  // Shapes: openai/codex codex-rs/protocol/src/protocol.rs (CompactedItem {message, replacement_history}) and
  // codex-rs/protocol/src/models.rs (ResponseItem::Compaction / ContextCompaction, alias compaction_summary:
  // only `encrypted_content`); codex-rs/core/src/compact_remote.rs writes `message: ""` with the encrypted
  // item in the replacement history; the handoff sentence is codex-rs/core/templates/compact/summary_prefix.md.
  const THREAD = "019a0c0d-0000-7000-8000-0000000c0a11";
  const HANDOFF =
    "Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model.";
  const sealed = { type: "compaction", encrypted_content: "gAAAAABpQ-trimmed" };
  const asked = { type: "message", role: "user", content: [{ type: "input_text", text: "fix the flaky upload test" }] };

  async function compactionsOf(records: Array<[string, Record<string, unknown>]>): Promise<SessionItem[]> {
    const at = (second: number) => new Date(Date.UTC(2026, 6, 21, 9, 0, second)).toISOString();
    const meta = {
      id: THREAD,
      timestamp: at(0),
      cwd: "/home/dev/kiln",
      originator: "codex-tui",
      cli_version: "0.145.0",
    };
    const lines = [["session_meta", meta] as const, ...records].map(([type, payload], index) =>
      JSON.stringify({ timestamp: at(index), type, payload }),
    );
    const path = join(tempDir(), `rollout-2026-07-21T09-00-00-${THREAD}.jsonl`);
    writeFileSync(path, `${lines.join("\n")}\n`);
    return (await itemsOf(path)).filter((item) => item.role !== "assistant");
  }

  it("keeps no item for a remote compaction, whose summary only OpenAI's servers can read", async () => {
    const items = await compactionsOf([
      ["event_msg", { type: "user_message", message: "fix the flaky upload test" }],
      ["response_item", { ...sealed, type: "context_compaction" }],
      ["compacted", { message: "", replacement_history: [asked, sealed] }],
      ["event_msg", { type: "context_compacted" }],
    ]);
    expect(items.map((item) => `${item.role}: ${item.text}`)).toEqual(["user: fix the flaky upload test"]);
  });

  it("reads a summary kept in clear in the replacement history, and the message when there is one", async () => {
    const summary = `${HANDOFF}\n\n## Current state\nThe upload test waits on a real timer; a fake clock is half wired in.`;
    const inHistory = { type: "message", role: "user", content: [{ type: "input_text", text: summary }] };
    const items = await compactionsOf([
      ["event_msg", { type: "user_message", message: "fix the flaky upload test" }],
      ["compacted", { message: "", replacement_history: [asked, inHistory] }],
      ["compacted", { message: "Summary: the upload test now uses a fake clock.", replacement_history: [asked] }],
    ]);
    expect(items.filter((item) => item.role === "compaction").map((item) => item.text)).toEqual([
      summary,
      "Summary: the upload test now uses a fake clock.",
    ]);
    expect(items.filter((item) => item.role === "user")).toHaveLength(1);
  });
});

describe("codex adapter: Codex's own failure wording", () => {
  // Shape: a real legacy rollout committed to openai/codex (.github/codex/home/sessions/2025/08/06/, commit
  // e463b6a0), whose `cargo test --workspace` failed in the sandbox (exit 101, panicked) and whose `cargo check
  // --workspace` timed out; the wording is codex-rs/core/src/codex.rs's (handle_sandbox_error).
  it("marks a sandbox denial, a timeout, a start error and a rejection as failed", async () => {
    const outputs = [
      "failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 101, stdout: , stderr: \nthread 'main' panicked at src/unix.rs:55:52:\nOperation not permitted",
      "failed in sandbox None with execution error: command timed out",
      "command timed out after 10000 milliseconds",
      "execution error: No such file or directory (os error 2)",
      "exec command rejected by user",
    ];
    const lines = [
      { id: "0198bbbb-0000-7000-8000-00000000fa11", timestamp: "2025-08-06T18:02:11.000Z", instructions: null },
      ...outputs.flatMap((output, index) => [
        {
          type: "function_call",
          name: "shell",
          arguments: JSON.stringify({ command: ["bash", "-lc", `cargo test --workspace #${index}`] }),
          call_id: `call_${index}`,
        },
        { type: "function_call_output", call_id: `call_${index}`, output },
      ]),
    ];
    const path = join(tempDir(), "rollout-2025-08-06T18-02-11-0198bbbb-0000-7000-8000-00000000fa11.jsonl");
    writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    const results = (await itemsOf(path)).filter((item) => item.role === "tool_result");
    expect(results.map((item) => item.isError)).toEqual([true, true, true, true, true]);
    expect(results[0]?.text).toContain("panicked");
  });

  it("leaves ordinary output that merely mentions such words alone", async () => {
    const lines = [
      { id: "0198bbbb-0000-7000-8000-00000000fa12", timestamp: "2025-08-06T18:02:11.000Z", instructions: null },
      { type: "function_call", name: "shell", arguments: '{"command":["cat","NOTES.md"]}', call_id: "call_n" },
      { type: "function_call_output", call_id: "call_n", output: "notes: a command timed out after 5 minutes once" },
    ];
    const path = join(tempDir(), "rollout-2025-08-06T18-02-11-0198bbbb-0000-7000-8000-00000000fa12.jsonl");
    writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    const result = (await itemsOf(path)).find((item) => item.role === "tool_result");
    expect(result?.isError).toBeUndefined();
  });
});
