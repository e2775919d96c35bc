import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { omp as ompAgent } from "../../src/agents/omp/descriptor.js";
import { pi as piAgent } from "../../src/agents/pi/descriptor.js";
import type { ReadResult, SourceAdapter } from "../../src/sources/adapter.js";
import { ompAdapter, piAdapter } from "../../src/sources/pi.js";
import type { ParsedSession } from "../../src/sources/types.js";
import { type ContractRecord, MALFORMED_LINE, runAdapterContract } from "./adapterContract.js";

const piFixtures = fileURLToPath(new URL("../fixtures/pi/", import.meta.url));
const ompFixtures = fileURLToPath(new URL("../fixtures/omp/", import.meta.url));
const ompParentStem = "2026-05-02T08-00-00-000Z_0190a1b2c3d4e5f6";
const ompParent = join(ompFixtures, "sessions", "-code-uploader", `${ompParentStem}.jsonl`);

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "cairn-pi-"));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function read(adapter: SourceAdapter, path: string): Promise<ReadResult> {
  return adapter.read({ file: { path, agent: adapter.agent } });
}

function only(result: ReadResult): ParsedSession {
  expect(result.sessions).toHaveLength(1);
  return result.sessions[0]!;
}

/** A v3 header, then one entry per record, each the child of the one before; v1: a plain list of lines. */
function piLines(records: readonly ContractRecord[], version: 1 | 3 = 3): string {
  const at = (second: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, second)).toISOString();
  const header = {
    type: "session",
    ...(version === 3 ? { version } : {}),
    id: "c0de0000-aaaa-4bbb-8ccc-00000000c0de",
    timestamp: at(0),
    cwd: "/work/app",
  };
  const lines = [JSON.stringify(header)];
  let parentId: string | null = null;
  records.forEach((record, index) => {
    const timestamp = at(index + 1);
    const id = `e${String(index).padStart(7, "0")}`;
    // v1 entries have no tree links: their line is their identity.
    const links = version === 3 ? { id, parentId } : {};
    if (record.kind === "malformed") lines.push(MALFORMED_LINE);
    else if (record.kind === "unknown") lines.push(JSON.stringify({ type: "future_entry", ...links, timestamp }));
    else {
      const content = record.kind === "user" ? record.text : [{ type: "text", text: record.text }];
      lines.push(JSON.stringify({ type: "message", ...links, timestamp, message: { role: record.kind, content } }));
    }
    if (record.kind !== "malformed") parentId = id;
  });
  return lines.map((line) => `${line}\n`).join("");
}

for (const adapter of [piAdapter, ompAdapter]) {
  runAdapterContract(adapter.agent, {
    adapter,
    file: join("sessions", "--work-app--", "2026-03-01T09-00-00-000Z_c0de.jsonl"),
    write: (path, records) => writeFileSync(path, piLines(records)),
  });
}

runAdapterContract("pi v1 linear", {
  adapter: piAdapter,
  file: join("sessions", "--work-app--", "2026-03-01T09-00-00-000Z_c0de.jsonl"),
  write: (path, records) => writeFileSync(path, piLines(records, 1)),
});

describe("pi v1 linear file", () => {
  const file = join(piFixtures, "v1-linear.jsonl");

  it("reads the header and every message in order, keyed by line", async () => {
    const result = await read(piAdapter, file);
    const { session, items } = only(result);
    expect(session).toMatchObject({
      id: "11111111-aaaa-4bbb-8ccc-000000000001",
      agent: "pi",
      kind: "interactive",
      cwd: "/work/linear",
      startedAt: Date.parse("2026-03-01T10:00:00.000Z"),
      updatedAt: Date.parse("2026-03-01T10:00:09.000Z"),
    });
    expect(session.parentId).toBeUndefined();
    expect(items.map((item) => [item.key, item.role, item.text])).toEqual([
      ["L2", "user", "Add a retry to the fetch helper"],
      ["L3", "assistant", "I will read the helper first."],
      ["L3#2", "tool_call", '{"path":"src/fetch.ts"}'],
      ["L4", "tool_result", "export async function fetchJson() {}"],
      ["L6", "tool_call", "npm test"],
      ["L6#2", "tool_result", "1 failing"],
      ["L8", "compaction", "The user wants retries in fetchJson; tests fail once."],
      ["L11", "user", "Use exponential backoff."],
    ]);
  });

  it("pairs tool calls and results and marks failed shell commands", async () => {
    const { items } = only(await read(piAdapter, file));
    expect(items[2]).toMatchObject({ tool: "read", callId: "call_1" });
    expect(items[3]).toMatchObject({ tool: "read", callId: "call_1", isError: false });
    expect(items[4]).toMatchObject({ tool: "bash", callId: "L6" });
    expect(items[5]).toMatchObject({ tool: "bash", callId: "L6", isError: true });
    expect(items[0]).toMatchObject({ ts: Date.parse("2026-03-01T10:00:01.000Z"), origin: { file, line: 2 } });
  });

  it("locates malformed lines, counts skipped entries and leaves a torn last line for later", async () => {
    const result = await read(piAdapter, file);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ file, line: 7 });
    // model_change, the aborted empty assistant reply and the unknown entry type.
    expect(result.skipped).toBe(3);
    const size = readFileSync(file).length;
    const torn = readFileSync(file, "utf8").split("\n").at(-1) ?? "";
    expect(result.resume).toMatchObject({ offset: size - Buffer.byteLength(torn), line: 11 });
  });
});

describe("pi v3 tree file", () => {
  const file = join(piFixtures, "v3-tree.jsonl");

  it("follows the active branch and keeps the summary of the abandoned one", async () => {
    const result = await read(piAdapter, file);
    const { items } = only(result);
    expect(items.map((item) => [item.key, item.role, item.text])).toEqual([
      ["a0000001", "user", "Rename the config loader"],
      ["a0000002", "assistant", "Which name do you prefer?"],
      ["a0000005", "compaction", "Tried the name loadSettings; the user went back."],
      ["a0000006", "user", "Call it readConfig instead"],
      ["a0000007", "assistant", "Renaming."],
      ["a0000007#2", "tool_call", '{"path":"src/config.ts","old":"loadConfig","new":"readConfig"}'],
      ["a0000008", "tool_result", "no match for loadConfig"],
      ["a0000009", "compaction", "Renaming loadConfig to readConfig; first edit failed."],
      ["a0000010", "system", "Run the linter before committing."],
      ["a0000015", "assistant", "Done: readConfig is in place."],
    ]);
    expect(items[6]).toMatchObject({ callId: "call_9", tool: "edit", isError: true });
    // Two abandoned-branch entries, the hidden custom message, label, session_info, thinking change.
    expect(result.skipped).toBe(6);
    expect(result.problems).toEqual([]);
  });

  it("takes the fork source as parent and the session name as title", async () => {
    const { session } = only(await read(piAdapter, file));
    expect(session).toMatchObject({
      id: "33333333-aaaa-4bbb-8ccc-000000000003",
      kind: "interactive",
      cwd: "/work/tree",
      parentId: "22222222-aaaa-4bbb-8ccc-000000000002",
      title: "Config rename",
      updatedAt: Date.parse("2026-03-01T10:00:15.000Z"),
    });
  });

  it("reports a broken parent link and keeps the conversation before it", async () => {
    const dir = tempDir();
    const path = join(dir, "broken.jsonl");
    const lines = readFileSync(file, "utf8").split("\n");
    // Line 7 (entry a0000006) becomes unreadable, so a0000007 points at an unknown parent.
    lines[6] = "{ torn in the middle";
    writeFileSync(path, lines.join("\n"));
    const result = await read(piAdapter, path);
    expect(result.problems.map((problem) => problem.line)).toEqual([7, 8]);
    const keys = only(result).items.map((item) => item.key);
    expect(keys).toContain("a0000001");
    expect(keys).toContain("a0000015");
    expect(keys).not.toContain("a0000006");
  });
});

describe("omp files", () => {
  it("takes the title from the title slot before the header", async () => {
    const result = await read(ompAdapter, ompParent);
    const { session, items } = only(result);
    expect(session).toMatchObject({
      id: "0190a1b2c3d4e5f6",
      agent: "omp",
      kind: "interactive",
      cwd: "/home/dev/code/uploader",
      title: "Fix flaky upload test",
    });
    expect(items.map((item) => item.role)).toEqual(["user", "tool_call", "tool_result", "assistant"]);
    expect(items[0]?.origin.line).toBe(3);
    expect(result.skipped).toBe(1);
  });

  it("reads a task subagent next to its parent session", async () => {
    const path = join(ompFixtures, "sessions", "-code-uploader", ompParentStem, "0-Explore.jsonl");
    const { session, items } = only(await read(ompAdapter, path));
    expect(session).toMatchObject({ id: "0190a1b2c3d4e5f7", kind: "subagent", parentId: "0190a1b2c3d4e5f6" });
    expect(items).toHaveLength(2);
  });

  it("falls back to the folder name when the parent session file is gone", async () => {
    const folder = "2026-05-03T09-00-00-000Z_orphanparent";
    const path = join(ompFixtures, "sessions", "--srv-other--", folder, "1-Plan.jsonl");
    const result = await read(ompAdapter, path);
    expect(only(result).session).toMatchObject({
      id: `${folder}:1-Plan`,
      kind: "subagent",
      parentId: folder,
      cwd: null,
    });
    expect(result.problems).toEqual([{ file: path, line: 1, reason: expect.stringContaining("no session header") }]);
  });

  it("discovers every session file under the agent dir, subagents included", async () => {
    const files = await ompAdapter.discover(ompFixtures);
    expect(files.map((file) => file.path.slice(ompFixtures.length))).toEqual([
      "sessions/--srv-other--/2026-05-03T09-00-00-000Z_orphanparent/1-Plan.jsonl",
      `sessions/-code-uploader/${ompParentStem}/0-Explore.jsonl`,
      `sessions/-code-uploader/${ompParentStem}.jsonl`,
    ]);
    expect(files.every((file) => file.agent === "omp")).toBe(true);
    expect(await piAdapter.discover(join(tempDir(), "missing"))).toEqual([]);
  });
});

describe("roots", () => {
  it("uses the agent dir variables, else the home layout", () => {
    expect(piAgent.sessionFolders({ PI_CODING_AGENT_DIR: "/x/pi" }, "/home/u")).toEqual(["/x/pi"]);
    expect(piAgent.sessionFolders({}, "/home/u")).toEqual([join("/home/u", ".pi", "agent")]);
    // pi expands a leading ~ itself, so the scan reads the folder pi writes to (as the connector does).
    expect(piAgent.sessionFolders({ PI_CODING_AGENT_DIR: "~/pi-data" }, "/home/u")).toEqual([
      join("/home/u", "pi-data"),
    ]);
    expect(ompAgent.sessionFolders({ OMP_CODING_AGENT_DIR: "/x/omp" }, "/home/u")).toEqual(["/x/omp"]);
    expect(ompAgent.sessionFolders({}, "/home/u")).toEqual([join("/home/u", ".omp", "agent")]);
  });
});

describe("resume", () => {
  /** Writes the first `head` lines of a fixture, reads, appends the rest, resumes; returns both reads and a full one. */
  async function readInTwo(fixture: string, head: number) {
    const lines = readFileSync(fixture, "utf8").split(/(?<=\n)/);
    const path = join(tempDir(), "session.jsonl");
    writeFileSync(path, lines.slice(0, head).join(""));
    const first = await read(piAdapter, path);
    appendFileSync(path, lines.slice(head).join(""));
    const resume = first.resume;
    expect(resume).toBeDefined();
    const second = await piAdapter.read({ file: { path, agent: "pi" }, ...(resume ? { resume } : {}) });
    const full = await read(piAdapter, path);
    return { first, second, full };
  }

  it("continues a v1 file from its offset with the same items as a full read", async () => {
    const { first, second, full } = await readInTwo(join(piFixtures, "v1-linear.jsonl"), 5);
    expect(second.needsFullRead).toBeUndefined();
    expect(second.sessions[0]?.partial).toBe(true);
    const combined = [...only(first).items, ...only(second).items];
    expect(combined).toEqual(only(full).items);
    expect(only(second).session).toEqual(only(full).session);
    expect(second.resume).toEqual(full.resume);
  });

  it("continues a v3 file while new entries extend the tip", async () => {
    const { first, second, full } = await readInTwo(join(piFixtures, "v3-tree.jsonl"), 9);
    expect(second.needsFullRead).toBeUndefined();
    expect([...only(first).items, ...only(second).items]).toEqual(only(full).items);
    expect(only(second).session).toEqual(only(full).session);
    expect(first.skipped + second.skipped).toBe(full.skipped);
  });

  it("asks for a full read when an append starts a new branch", async () => {
    const { second, full } = await readInTwo(join(piFixtures, "v3-tree.jsonl"), 5);
    expect(second).toMatchObject({ needsFullRead: true, sessions: [] });
    expect(only(full).items.map((item) => item.key)).not.toContain("a0000004");
  });

  it("notices omp's title slot rewritten in place", async () => {
    const path = join(tempDir(), "titled.jsonl");
    copyFileSync(ompParent, path);
    const first = await read(ompAdapter, path);
    const [slot = "", ...rest] = readFileSync(path, "utf8").split("\n");
    // Same length on purpose: omp rewrites the fixed-width slot in place.
    const renamed = slot.replace('"Fix flaky upload test"', '"Fake the upload timer"');
    expect(renamed).toHaveLength(slot.length);
    writeFileSync(path, [renamed, ...rest].join("\n"));
    const resume = first.resume;
    const second = await ompAdapter.read({ file: { path, agent: "omp" }, ...(resume ? { resume } : {}) });
    expect(second.needsFullRead).toBeUndefined();
    expect(only(second)).toMatchObject({ session: { title: "Fake the upload timer" }, items: [], partial: true });
  });

  it("asks for a full read when the carried state is not its own", async () => {
    const path = join(piFixtures, "v1-linear.jsonl");
    const result = await piAdapter.read({
      file: { path, agent: "pi" },
      resume: { offset: 0, line: 0, state: { nope: 1 } },
    });
    expect(result.needsFullRead).toBe(true);
  });
});

describe("bad files", () => {
  it("yields no session for a file with nothing complete in it", async () => {
    const path = join(tempDir(), "empty.jsonl");
    writeFileSync(path, '{"type":"sess');
    const result = await read(piAdapter, path);
    expect(result).toMatchObject({ sessions: [], problems: [], skipped: 0 });
    expect(result.resume).toBeUndefined();
  });
});
