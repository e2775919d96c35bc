import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { claudeCode as claudeCodeAgent } from "../../src/agents/claudeCode/descriptor.js";
import type { ReadResult } from "../../src/sources/adapter.js";
import { claudeCodeAdapter } from "../../src/sources/claudeCode.js";
import type { SessionItem } from "../../src/sources/types.js";
import { expectItemsLocated } from "../helpers/expectItemsLocated.js";
import { tempDir } from "../helpers/tempDir.js";
import { type ContractRecord, MALFORMED_LINE, mergeByKey, runAdapterContract, stored } from "./adapterContract.js";

const ROOT = fileURLToPath(new URL("../fixtures/claude-code/", import.meta.url));
const PROJECT = join(ROOT, "projects", "-home-dev-my-shop");
const SESSION = "5b0c1d2e-3f40-4a51-8b62-7c83d94ea0f1";
const MAIN = join(PROJECT, `${SESSION}.jsonl`);
const BRANCHED = join(PROJECT, "6c1d2e3f-4051-4b62-8c73-9d84e5f6a7b8.jsonl");
const SUBAGENT = join(PROJECT, SESSION, "subagents", "agent-a7f3c21.jsonl");

const read = (path: string, resume?: ReadResult["resume"]): Promise<ReadResult> =>
  claudeCodeAdapter.read({ file: { path, agent: "claude-code" }, ...(resume ? { resume } : {}) });

async function itemsOf(path: string): Promise<SessionItem[]> {
  return (await read(path)).sessions[0]?.items ?? [];
}

const summary = (items: SessionItem[]): string[] => items.map((item) => `${item.role}: ${item.text}`);

/** A private copy of the fixture tree, for tests that write. */
function copyOfFixtures(): string {
  const dir = tempDir("cairn-claude-test-");
  cpSync(ROOT, dir, { recursive: true });
  return dir;
}

const CONTRACT_SESSION = "0a1b2c3d-0000-4000-8000-00000000c0de";

/** One line per record, each message chained to the one before it by `parentUuid`. */
function claudeLines(records: readonly ContractRecord[]): string {
  let parent: string | null = null;
  return records
    .map((record, index) => {
      if (record.kind === "malformed") return MALFORMED_LINE;
      const timestamp = new Date(Date.UTC(2026, 2, 10, 9, 0, index)).toISOString();
      if (record.kind === "unknown")
        return JSON.stringify({ type: "future-record", sessionId: CONTRACT_SESSION, timestamp });
      const uuid = `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
      const message =
        record.kind === "user"
          ? { role: "user", content: record.text }
          : { id: `msg_c${index}`, type: "message", role: "assistant", content: [{ type: "text", text: record.text }] };
      const line = { parentUuid: parent, isSidechain: false, userType: "external", cwd: "/home/dev/app" };
      parent = uuid;
      return JSON.stringify({ ...line, sessionId: CONTRACT_SESSION, type: record.kind, message, uuid, timestamp });
    })
    .map((line) => `${line}\n`)
    .join("");
}

runAdapterContract("claude code", {
  adapter: claudeCodeAdapter,
  file: join("projects", "-home-dev-app", `${CONTRACT_SESSION}.jsonl`),
  write: (path, records) => writeFileSync(path, claudeLines(records)),
});

describe("claude code adapter: a main transcript", () => {
  it("keeps what the person and the model said, one item per content block", async () => {
    expect(summary(await itemsOf(MAIN))).toEqual([
      // A local command's output (here /model's): the harness's text, kept as a system item.
      "system: Set model to opus",
      "user: Add a discount field to the cart totals.",
      "assistant: I'll look at the cart module first.",
      'tool_call: {"file_path":"/home/dev/my-shop/src/cart.ts"}',
      'tool_call: {"pattern":"total","path":"src"}',
      "tool_result: 1→export function total(items) {\n     2→  return items.reduce((a, b) => a + b, 0);\n     3→}",
      "tool_result: src/cart.ts:1:export function total(items) {",
      "assistant: Adding the discount to the totals.",
      'tool_call: {"file_path":"/home/dev/my-shop/src/cart.ts","old_string":"return items","new_string":"return applyDiscount(items"}',
      "tool_result: File has not been read yet. Read it first before writing to it.",
      // Claude Code's note that the person stopped the agent: a system item, not their words.
      "system: [Request interrupted by user for tool use]",
      "user: Use integer cents, not floats.",
      "assistant: Switched the discount to integer cents.",
      "compaction: This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary: the cart total now subtracts a discount stored in integer cents.",
      "user: Now add tests for the discount.",
      'tool_call: {"command":"npm test -- cart","description":"Run cart tests"}',
      "tool_result: FAIL src/cart.test.ts\n  expected 1050, got 1049",
      "assistant: One test fails on rounding; fixing it.",
    ]);
  });

  it("drops meta lines, slash-command envelopes, reminders and thinking, and keeps an interruption out of the user's words", async () => {
    const items = await itemsOf(MAIN);
    const text = items.map((item) => item.text).join("\n");
    for (const noise of [
      "<command-",
      "local-command",
      "Caveat:",
      "system-reminder",
      "malware",
      "Look at the cart module.",
    ]) {
      expect(text).not.toContain(noise);
    }
    const said = items.filter((item) => item.role === "user" || item.role === "assistant").map((item) => item.text);
    expect(said.join("\n")).not.toContain("Request interrupted");
  });

  it("pairs tool results with their calls and keeps their error flags", async () => {
    const tools = (await itemsOf(MAIN)).filter((item) => item.role === "tool_call" || item.role === "tool_result");
    expect(tools.map((item) => [item.role, item.tool, item.callId, item.isError])).toEqual([
      ["tool_call", "Read", "toolu_01Read", undefined],
      ["tool_call", "Grep", "toolu_01Grep", undefined],
      ["tool_result", "Read", "toolu_01Read", undefined],
      ["tool_result", "Grep", "toolu_01Grep", false],
      ["tool_call", "Edit", "toolu_01Edit", undefined],
      ["tool_result", "Edit", "toolu_01Edit", true],
      ["tool_call", "Bash", "toolu_01Bash", undefined],
      ["tool_result", "Bash", "toolu_01Bash", true],
    ]);
  });

  it("keys assistant blocks by message id, so a block written twice is one item", async () => {
    const items = await itemsOf(MAIN);
    expect(items.filter((item) => item.text === "I'll look at the cart module first.")).toHaveLength(1);
    const keys = items.map((item) => item.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(items.filter((item) => item.key.startsWith("msg_01B:")).map((item) => item.role)).toEqual([
      "assistant",
      "tool_call",
    ]);
  });

  it("describes the session from its lines, not from the folder name", async () => {
    const result = await read(MAIN);
    expect(result.sessions[0]?.session).toEqual({
      id: SESSION,
      agent: "claude-code",
      kind: "interactive",
      cwd: "/home/dev/my-shop",
      git: { branch: "feat/cart-discount" },
      startedAt: Date.parse("2026-03-10T14:00:01.000Z"),
      updatedAt: Date.parse("2026-03-10T14:02:50.000Z"),
    });
  });

  it("reports the malformed line, counts bookkeeping as skipped, and locates every item", async () => {
    const result = await read(MAIN);
    expect(result.problems).toEqual([{ file: MAIN, line: 18, reason: expect.stringContaining("malformed JSON") }]);
    expect(result.skipped).toBe(10);
    expectItemsLocated(result.sessions[0]?.items ?? [], MAIN);
  });

  it("continues from any offset with the same items and session as a whole-file read", async () => {
    const dir = copyOfFixtures();
    const path = join(dir, "projects", "-home-dev-my-shop", `${SESSION}.jsonl`);
    const lines = readFileSync(MAIN, "utf8").split(/(?<=\n)/);
    const full = await read(path);
    for (let cut = 1; cut < lines.length; cut += 1) {
      writeFileSync(path, lines.slice(0, cut).join(""));
      const first = await read(path);
      appendFileSync(path, lines.slice(cut).join(""));
      // No resume means a whole-file read.
      const second = await read(path, stored(first.resume));
      expect(second.needsFullRead).toBeUndefined();
      expect(mergeByKey(first.sessions[0]?.items ?? [], second.sessions[0]?.items ?? [])).toEqual(
        full.sessions[0]?.items,
      );
      expect(second.sessions[0]?.session).toEqual(full.sessions[0]?.session);
    }
  });
});

describe("claude code adapter: branches", () => {
  it("follows the active branch after the user edited an earlier prompt", async () => {
    expect(summary(await itemsOf(BRANCHED))).toEqual([
      "user: Rename the helper to formatPrice.",
      "assistant: Renamed it to formatPrice.",
      "user: Keep it private and add a doc comment instead.",
      "assistant: Added a doc comment; formatPrice stays private.",
    ]);
  });

  it("asks for a whole-file read when appended lines branch off earlier history", async () => {
    const dir = copyOfFixtures();
    const path = join(dir, "projects", "-home-dev-my-shop", "6c1d2e3f-4051-4b62-8c73-9d84e5f6a7b8.jsonl");
    const lines = readFileSync(BRANCHED, "utf8").split(/(?<=\n)/);
    writeFileSync(path, lines.slice(0, 4).join(""));
    const first = await read(path);
    expect(summary(first.sessions[0]?.items ?? [])).toContain("user: Also export it from the package.");
    appendFileSync(path, lines.slice(4).join(""));
    const second = await read(path, first.resume);
    expect(second.needsFullRead).toBe(true);
    expect(second.sessions).toEqual([]);
  });
});

describe("claude code adapter: subagents and runs", () => {
  it("makes a subagents/ transcript its own session under the parent", async () => {
    const result = await read(SUBAGENT);
    expect(result.sessions[0]?.session).toMatchObject({
      id: `${SESSION}:agent-a7f3c21`,
      kind: "subagent",
      parentId: SESSION,
      cwd: "/home/dev/my-shop",
    });
    expect(summary(result.sessions[0]?.items ?? [])).toEqual([
      "user: Find where cart totals are computed.",
      'tool_call: {"pattern":"function total"}',
      "tool_result: src/cart.ts:1",
      "assistant: Totals are computed in src/cart.ts (function total).",
    ]);
  });

  it("reads a flat 2.0.x agent file as a subagent of the session its lines name", async () => {
    const session = (await read(join(PROJECT, "agent-5e6f7a8b.jsonl"))).sessions[0]?.session;
    expect(session).toMatchObject({
      id: "8e3f4051-6273-4d84-9e95-bfb6a7b8c9d0:agent-5e6f7a8b",
      kind: "subagent",
      parentId: "8e3f4051-6273-4d84-9e95-bfb6a7b8c9d0",
    });
  });

  it("imports nothing from a Warmup sidechain, now or after it grows", async () => {
    const dir = copyOfFixtures();
    const path = join(dir, "projects", "-home-dev-my-shop", "agent-9c0d1e2f.jsonl");
    const first = await read(path);
    expect(first.sessions).toEqual([]);
    expect(first.skipped).toBe(2);
    expect(first.problems).toEqual([]);
    appendFileSync(path, readFileSync(join(PROJECT, "agent-5e6f7a8b.jsonl")));
    expect((await read(path, first.resume)).sessions).toEqual([]);
  });

  it("marks an SDK run as exec and names it by its sessionId, not its file name", async () => {
    const session = (await read(join(PROJECT, "sdk-run.jsonl"))).sessions[0]?.session;
    expect(session).toMatchObject({ id: "7d2e3f40-5162-4c73-8d84-aea5f6a7b8c9", kind: "exec" });
  });
});

describe("claude code adapter: files and roots", () => {
  it("uses $CLAUDE_CONFIG_DIR, else ~/.claude", () => {
    expect(claudeCodeAgent.sessionFolders({ CLAUDE_CONFIG_DIR: "/opt/claude" }, "/home/dev")).toEqual(["/opt/claude"]);
    expect(claudeCodeAgent.sessionFolders({}, "/home/dev")).toEqual([join("/home/dev", ".claude")]);
  });

  it("finds main, subagents/ and flat agent transcripts, and nothing else", async () => {
    const found = (await claudeCodeAdapter.discover(ROOT)).map((file) => file.path).sort();
    expect(found).toEqual(
      [
        MAIN,
        BRANCHED,
        SUBAGENT,
        join(PROJECT, "agent-5e6f7a8b.jsonl"),
        join(PROJECT, "agent-9c0d1e2f.jsonl"),
        join(PROJECT, "sdk-run.jsonl"),
      ].sort(),
    );
    expect(await claudeCodeAdapter.discover(join(ROOT, "missing"))).toEqual([]);
  });

  it("waits for a line that names the session before importing or resuming", async () => {
    const dir = tempDir("cairn-claude-test-");
    const path = join(dir, "0f0f0f0f-0000-4000-8000-000000000000.jsonl");
    writeFileSync(path, `${JSON.stringify({ type: "file-history-snapshot", messageId: "m", snapshot: {} })}\n`);
    const result = await read(path);
    expect(result.sessions).toEqual([]);
    expect(result.resume).toBeUndefined();
    expect(result.skipped).toBe(1);
  });
});

describe("claude code adapter: messages typed while the agent works", () => {
  // Shapes (written afresh): Claude Code 2.1.284's records as public tests of tools that read these
  // transcripts keep them (found by content search; the index did not name their repositories, see
  // docs/collection.md): `queue-operation` enqueue (with the text) then one of remove (reason
  // absorbed_mid_turn), dequeue, popAll; the `queued_command` attachment in the chain, origin human, peer
  // or task-notification.
  const QUEUED = join(ROOT, "queued", "projects", "-home-dev-kiln", "2c0ffee0-9a1b-4c2d-8e3f-4a5b6c7d8e9f.jsonl");

  it("imports a queued message where the agent received it, once, and only the person's", async () => {
    const items = (await read(QUEUED)).sessions[0]?.items ?? [];
    expect(summary(items.filter((item) => item.role === "user" || item.role === "assistant"))).toEqual([
      "user: Make the kiln tests pass.",
      "assistant: Running the tests first.",
      // Typed during the test run, handed to the agent after the tool result: there, before its next reply.
      "user: use rgb values in the themes, not indices",
      "assistant: Switched the themes to rgb values; one test still fails.",
      // Queued, then sent as the next prompt: the ordinary user line, not a second copy.
      "user: now fix the failing test",
      "assistant: Fixed the glaze temperature check; all four tests pass.",
      // Not here: the message pulled back out of the queue (popAll), the task notification, the other
      // agent's message, and the one still queued when the file ends.
    ]);
  });

  it("reads the delivered message the same way after a resumed read", async () => {
    const dir = tempDir("cairn-claude-queue-");
    const path = join(dir, "2c0ffee0-9a1b-4c2d-8e3f-4a5b6c7d8e9f.jsonl");
    const lines = readFileSync(QUEUED, "utf8").split(/(?<=\n)/);
    const full = await read(QUEUED);
    for (let cut = 1; cut < lines.length; cut += 1) {
      writeFileSync(path, lines.slice(0, cut).join(""));
      const first = await read(path);
      appendFileSync(path, lines.slice(cut).join(""));
      const second = await read(path, stored(first.resume));
      const merged = mergeByKey(first.sessions[0]?.items ?? [], second.sessions[0]?.items ?? []);
      expect(summary(merged)).toEqual(summary(full.sessions[0]?.items ?? []));
    }
  });
});

describe("a local command's output", () => {
  it("is kept without its tags as the harness's text, never as the person's words", async () => {
    const { localCommandOutput, cleanUserText } = await import("../../src/sources/claudeCode/userText.js");
    const hookText =
      "<local-command-stdout>Branch policy: feature branches merge locally, never pushed.</local-command-stdout>";
    expect(localCommandOutput(hookText)).toBe("Branch policy: feature branches merge locally, never pushed.");
    expect(cleanUserText(hookText)).toBe("");
    expect(localCommandOutput("<local-command-stdout></local-command-stdout>")).toBeUndefined();
    expect(localCommandOutput("please print <local-command-stdout>x</local-command-stdout>")).toBeUndefined();
  });
});
