import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { gemini as geminiAgent } from "../../src/agents/gemini/descriptor.js";
import type { ReadResult } from "../../src/sources/adapter.js";
import { geminiAdapter } from "../../src/sources/gemini.js";
import type { ParsedSession } from "../../src/sources/types.js";
import { type ContractRecord, MALFORMED_LINE, runAdapterContract } from "./adapterContract.js";

const root = fileURLToPath(new URL("../fixtures/gemini/dot-gemini", import.meta.url));
const mainId = "aaaa1111-2222-4333-8444-555566667777";
const hashedSlug = "c4193238d6f030edc345c5a5d49e2e243387daa6021feeb37f6cf61cb3f0b9f1";
const files = {
  main: join(root, "tmp", "alpha", "chats", "session-2026-04-20T10-00-aaaa1111.jsonl"),
  subagent: join(root, "tmp", "alpha", "chats", mainId, "bbbb1111-2222-4333-8444-555566667777.jsonl"),
  rewritten: join(root, "tmp", "beta", "chats", "session-2026-04-21T09-00-cccc1111.jsonl"),
  legacy: join(root, "tmp", hashedSlug, "chats", "session-2025-12-01T08-00-dddd1111.json"),
  broken: join(root, "tmp", hashedSlug, "chats", "session-2025-12-02T08-00-eeee1111.json"),
};

async function read(path: string): Promise<ReadResult> {
  return geminiAdapter.read({ file: { path, agent: "gemini" } });
}

function only(result: ReadResult): ParsedSession {
  expect(result.sessions).toHaveLength(1);
  return result.sessions[0]!;
}

const contractMeta = {
  sessionId: "c0de0000-2222-4333-8444-555566667777",
  projectHash: "c0de",
  startTime: "2026-04-20T09:00:00.000Z",
  lastUpdated: "2026-04-20T09:00:00.000Z",
};

/** A chat message as both formats store it; an unknown `type` is one the CLI may add later. */
function geminiMessage(record: ContractRecord, index: number): Record<string, unknown> {
  const timestamp = new Date(Date.UTC(2026, 3, 20, 9, 0, index + 1)).toISOString();
  if (record.kind === "user") return { id: `c-${index}`, timestamp, type: "user", content: [{ text: record.text }] };
  if (record.kind === "assistant") return { id: `c-${index}`, timestamp, type: "gemini", content: record.text };
  return { id: `c-${index}`, timestamp, type: "future-kind", content: "" };
}

runAdapterContract("gemini JSONL", {
  adapter: geminiAdapter,
  file: "session-2026-04-20T09-00-c0de0000.jsonl",
  write: (path, records) => {
    const lines = records.map((record, index) =>
      record.kind === "malformed" ? MALFORMED_LINE : JSON.stringify(geminiMessage(record, index)),
    );
    writeFileSync(path, [JSON.stringify(contractMeta), ...lines].map((line) => `${line}\n`).join(""));
  },
});

runAdapterContract("gemini legacy JSON", {
  adapter: geminiAdapter,
  file: "session-2025-12-01T09-00-c0de0000.json",
  write: (path, records) =>
    writeFileSync(path, JSON.stringify({ ...contractMeta, messages: records.map(geminiMessage) }, null, 2)),
  skip: [
    { case: "torn last line", reason: "one JSON document rewritten whole: it has no last line to tear" },
    {
      case: "malformed record",
      reason: "one JSON document: a broken byte makes the whole file one problem (see 'reports a broken document')",
    },
  ],
});

describe("gemini JSONL chat", () => {
  it("replays updates, rewinds and patches into the final conversation", async () => {
    const result = await read(files.main);
    const { items } = only(result);
    expect(items.map((item) => [item.key, item.role, item.text])).toEqual([
      ["m-1", "user", "Fix the parser. @src/parse.ts"],
      ["m-2/read_file-1:call", "tool_call", '{"file_path":"src/parse.ts"}'],
      ["m-2/read_file-1:result", "tool_result", "export function parse() {}"],
      ["m-2/run_shell_command-2:call", "tool_call", '{"command":"npm test"}'],
      ["m-2/run_shell_command-2:result", "tool_result", "exit code 1"],
      ["m-4", "assistant", "The parser ignores empty input."],
      ["m-7", "user", "Add a test for empty input."],
    ]);
    expect(items[2]).toMatchObject({ tool: "read_file", callId: "read_file-1", isError: false, origin: { line: 7 } });
    expect(items[4]).toMatchObject({
      tool: "run_shell_command",
      isError: true,
      ts: Date.parse("2026-04-20T10:00:04.000Z"),
    });
  });

  it("takes session metadata from the header and $set patches, and cwd from .project_root", async () => {
    const { session } = only(await read(files.main));
    expect(session).toEqual({
      id: mainId,
      agent: "gemini",
      kind: "interactive",
      cwd: "/work/alpha",
      title: "Fix parser empty input",
      startedAt: Date.parse("2026-04-20T10:00:00.000Z"),
      updatedAt: Date.parse("2026-04-20T10:00:09.000Z"),
    });
  });

  it("counts the bootstrap, notices and unknown lines, locates the malformed line and offers no resume", async () => {
    const result = await read(files.main);
    expect(result.problems).toEqual([{ file: files.main, line: 9, reason: expect.stringContaining("malformed JSON") }]);
    // <session_context> bootstrap, the info notice and the unknown record.
    expect(result.skipped).toBe(3);
    expect(result.resume).toBeUndefined();
  });

  it("rebuilds history from a $set.messages checkpoint, with later lines on top", async () => {
    const result = await read(files.rewritten);
    const { session, items } = only(result);
    expect(items.map((item) => [item.key, item.role, item.text])).toEqual([
      // New in the rewrite: the CLI's own compression summary, not something the user typed.
      ["b-summary", "compaction", "Summary: the user asked question one."],
      ["b-2", "assistant", "long answer one"],
      ["b-3", "user", "question two"],
    ]);
    expect(items[0]?.origin.line).toBe(4);
    // No .project_root here: projects.json maps the path to the slug.
    expect(session.cwd).toBe("/work/beta");
  });

  it("reads a subagent nested under its parent's session id", async () => {
    const { session, items } = only(await read(files.subagent));
    expect(session).toMatchObject({ kind: "subagent", parentId: mainId, cwd: "/work/alpha" });
    expect(items.map((item) => item.role)).toEqual(["user", "assistant"]);
  });
});

describe("gemini replay edge cases", () => {
  it("empties the history on a rewind to an unknown message, as the CLI does, and says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-gemini-"));
    try {
      const path = join(dir, "session-2026-01-01T00-00-ffff0000.jsonl");
      const lines = [
        {
          sessionId: "ffff0000-1",
          projectHash: "x",
          startTime: "2026-01-01T00:00:00.000Z",
          lastUpdated: "2026-01-01T00:00:00.000Z",
        },
        { id: "u-1", timestamp: "2026-01-01T00:00:01.000Z", type: "user", content: "first" },
        { $rewindTo: "no-such-id" },
        { id: "u-2", timestamp: "2026-01-01T00:00:02.000Z", type: "user", content: "second" },
      ];
      writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
      const result = await read(path);
      expect(only(result).items.map((item) => item.text)).toEqual(["second"]);
      expect(result.problems).toEqual([{ file: path, line: 3, reason: expect.stringContaining("no-such-id") }]);
      // Outside a .gemini/tmp/<project>/chats layout there is no way to tell the cwd.
      expect(only(result).session.cwd).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("gemini legacy JSON chat", () => {
  it("reads the single document and finds the cwd of a sha256-named folder", async () => {
    const result = await read(files.legacy);
    const { session, items } = only(result);
    expect(session).toMatchObject({
      id: "dddd1111-2222-4333-8444-555566667777",
      kind: "interactive",
      cwd: "/work/hashed-proj",
      startedAt: Date.parse("2025-12-01T08:00:00.000Z"),
      updatedAt: Date.parse("2025-12-01T08:01:00.000Z"),
    });
    expect(items.map((item) => [item.role, item.text])).toEqual([
      ["user", "hi"],
      ["assistant", "Hello!"],
      ["tool_call", '{"dir_path":"."}'],
      ["tool_result", "[DIR] src"],
    ]);
    expect(items.every((item) => item.origin.line === 0 && item.ts !== undefined)).toBe(true);
    expect(result.skipped).toBe(1);
  });

  it("reports a broken document as one problem", async () => {
    const result = await read(files.broken);
    expect(result.sessions).toEqual([]);
    expect(result.problems).toEqual([{ file: files.broken, reason: expect.stringContaining("malformed JSON") }]);
  });
});

describe("gemini discovery", () => {
  it("finds main chats in both formats and nested subagents, not logs.json", async () => {
    const found = await geminiAdapter.discover(root);
    expect(found.map((file) => file.path).sort()).toEqual(Object.values(files).sort());
    expect(await geminiAdapter.discover(join(root, "missing"))).toEqual([]);
  });

  it("roots at GEMINI_CLI_HOME/.gemini when set, else ~/.gemini", () => {
    expect(geminiAgent.sessionFolders({ GEMINI_CLI_HOME: "/cli-home" }, "/home/u")).toEqual([
      join("/cli-home", ".gemini"),
    ]);
    expect(geminiAgent.sessionFolders({}, "/home/u")).toEqual([join("/home/u", ".gemini")]);
  });
});
