import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { opencode as opencodeAgent } from "../../src/agents/opencode/descriptor.js";
import type { ReadResult } from "../../src/sources/adapter.js";
import { opencodeAdapter } from "../../src/sources/opencode.js";
import { type ContractRecord, MALFORMED_LINE, runAdapterContract } from "./adapterContract.js";

const legacyRoot = fileURLToPath(new URL("../fixtures/opencode", import.meta.url));
const legacySession = join(
  legacyRoot,
  "storage",
  "session",
  "0f3c9a7e1b2d4c5e6f7a8b9c0d1e2f3a4b5c6d7e",
  "ses_3a1f0c2d9ffeLegacyAbc01.json",
);

/** The tables OpenCode v1.2+ creates (reference/transcripts.md §4.2), trimmed to what matters here. */
const SCHEMA = `
CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, vcs TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE session (
  id TEXT PRIMARY KEY, project_id TEXT NOT NULL REFERENCES project(id) ON DELETE CASCADE, workspace_id TEXT, parent_id TEXT,
  slug TEXT NOT NULL, directory TEXT NOT NULL, path TEXT, title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT,
  cost REAL NOT NULL DEFAULT 0, tokens_input INTEGER NOT NULL DEFAULT 0, tokens_output INTEGER NOT NULL DEFAULT 0,
  revert TEXT, permission TEXT, agent TEXT, model TEXT,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_compacting INTEGER, time_archived INTEGER);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);
`;

const T = 1_780_000_000_000;
const PARENT = "ses_parent000000000000000001";
const CHILD = "ses_child0000000000000000001";

function seed(path: string): void {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.exec(SCHEMA);
  db.prepare("INSERT INTO project VALUES ('prj_1', '/work/app', 'git', ?, ?)").run(T, T);
  const session = db.prepare(
    "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'prj_1', ?, ?, ?, ?, '1.16.0', ?, ?)",
  );
  session.run(PARENT, null, "brave-otter", "/work/app", "Fix the login 500", T, T + 9000);
  session.run(CHILD, PARENT, "calm-heron", "/work/app", "Find auth code (@explore subagent)", T + 2100, T + 2600);
  const message = db.prepare("INSERT INTO message VALUES (?, ?, ?, ?, ?)");
  const part = db.prepare("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)");
  const addMessage = (id: string, sessionId: string, at: number, data: object | string) =>
    message.run(id, sessionId, at, at, typeof data === "string" ? data : JSON.stringify(data));
  const addPart = (id: string, messageId: string, sessionId: string, data: object) =>
    part.run(id, messageId, sessionId, T, T, JSON.stringify(data));

  // Inserted out of order: the reader orders messages by (time_created, id) and parts by id.
  addMessage("msg_05", PARENT, T + 5000, { role: "user", time: { created: T + 5000 } });
  addMessage("msg_01", PARENT, T + 1000, { role: "user", time: { created: T + 1000 } });
  addMessage("msg_04", PARENT, T + 4000, { role: "assistant", summary: true, time: { created: T + 4000 } });
  addMessage("msg_03", PARENT, T + 3000, { role: "user", time: { created: T + 3000 } });
  addMessage("msg_02b", PARENT, T + 2000, {
    role: "assistant",
    time: { created: T + 2000 },
    path: { cwd: "/work/app" },
  });
  addMessage("msg_02a", PARENT, T + 2000, "{broken json");
  addPart("prt_01b", "msg_01", PARENT, { type: "text", text: "<file contents>", synthetic: true });
  addPart("prt_01a", "msg_01", PARENT, { type: "text", text: "  Login fails with a 500  " });
  addPart("prt_01c", "msg_01", PARENT, { type: "file", mime: "text/plain", url: "file:///work/app/auth.ts" });
  addPart("prt_02a", "msg_02b", PARENT, { type: "step-start" });
  addPart("prt_02b", "msg_02b", PARENT, { type: "reasoning", text: "hmm", time: { start: T + 2001 } });
  addPart("prt_02c", "msg_02b", PARENT, {
    type: "tool",
    callID: "call_task",
    tool: "task",
    state: {
      status: "completed",
      input: { prompt: "find auth" },
      output: "auth.ts line 40",
      time: { start: T + 2100, end: T + 2600 },
    },
  });
  addPart("prt_02d", "msg_02b", PARENT, {
    type: "tool",
    callID: "call_bash",
    tool: "bash",
    state: {
      status: "error",
      input: { command: "pnpm tset" },
      error: "command not found: tset",
      time: { start: T + 2700, end: T + 2710 },
    },
  });
  addPart("prt_02d2", "msg_02b", PARENT, {
    type: "tool",
    callID: "call_test",
    tool: "bash",
    state: {
      status: "completed",
      input: { command: "pnpm test" },
      output: "FAIL auth.test.ts",
      metadata: { output: "FAIL auth.test.ts", exit: 1, description: "Run tests" },
      time: { start: T + 2720, end: T + 2790 },
    },
  });
  addPart("prt_02e", "msg_02b", PARENT, {
    type: "tool",
    callID: "call_edit",
    tool: "edit",
    state: { status: "running", input: { filePath: "auth.ts" }, time: { start: T + 2800 } },
  });
  addPart("prt_02f", "msg_02b", PARENT, {
    type: "text",
    text: "Fixed the null check.",
    time: { start: T + 2900, end: T + 2950 },
  });
  addPart("prt_02g", "msg_02b", PARENT, { type: "step-finish", reason: "stop", cost: 0, tokens: {} });
  addPart("prt_02h", "msg_02b", PARENT, { type: "patch", hash: "abc", files: ["auth.ts"] });
  addPart("prt_03a", "msg_03", PARENT, { type: "compaction", auto: true });
  addPart("prt_04a", "msg_04", PARENT, { type: "text", text: "Summary: the login 500 came from a null user; fixed." });
  addPart("prt_05a", "msg_05", PARENT, { type: "text", text: "Thanks" });
  addPart("prt_99a", "msg_gone", PARENT, { type: "text", text: "orphan" });

  addMessage("msg_c1", CHILD, T + 2150, { role: "user", time: { created: T + 2150 } });
  addMessage("msg_c2", CHILD, T + 2200, { role: "assistant", time: { created: T + 2200 } });
  addPart("prt_c1", "msg_c1", CHILD, { type: "text", text: "find auth" });
  addPart("prt_c2", "msg_c2", CHILD, { type: "text", text: "auth.ts line 40" });
  db.close();
}

const CONTRACT_SESSION = "ses_c0de00000000000000000001";

/** One message per record, its text in one part; an unknown record is a part type OpenCode may add later. */
function contractRows(records: readonly ContractRecord[]) {
  return records.map((record, index) => {
    const id = record.kind === "malformed" ? `msg_${record.id}` : `msg_c${String(index).padStart(3, "0")}`;
    const role = record.kind === "assistant" ? "assistant" : "user";
    const part =
      record.kind === "user" || record.kind === "assistant"
        ? { type: "text", text: record.text }
        : { type: "future-part", detail: "x" };
    return { id, at: T + index * 1000, role, part, malformed: record.kind === "malformed" };
  });
}

runAdapterContract("opencode database", {
  adapter: opencodeAdapter,
  file: "opencode.db",
  write: (path, records) => {
    rmSync(path, { force: true });
    rmSync(`${path}-wal`, { force: true });
    const db = new Database(path);
    db.exec(SCHEMA);
    db.prepare("INSERT INTO project VALUES ('prj_1', '/work/app', 'git', ?, ?)").run(T, T);
    db.prepare(
      "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'prj_1', 'calm-otter', '/work/app', 'Contract', '1.16.0', ?, ?)",
    ).run(CONTRACT_SESSION, T, T + records.length * 1000);
    for (const row of contractRows(records)) {
      const data = row.malformed ? MALFORMED_LINE : JSON.stringify({ role: row.role, time: { created: row.at } });
      db.prepare("INSERT INTO message VALUES (?, ?, ?, ?, ?)").run(row.id, CONTRACT_SESSION, row.at, row.at, data);
      db.prepare("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)").run(
        `prt_${row.id.slice(4)}`,
        row.id,
        CONTRACT_SESSION,
        row.at,
        row.at,
        JSON.stringify(row.part),
      );
    }
    db.close();
  },
  malformedAt: (path, id) => ({ file: path, names: `msg_${id}` }),
  skip: [{ case: "torn last line", reason: "SQLite writes rows whole: a reader never sees half a row" }],
});

runAdapterContract("opencode legacy JSON tree", {
  adapter: opencodeAdapter,
  file: join("storage", "session", "prj_c0de", `${CONTRACT_SESSION}.json`),
  write: (path, records) => {
    const storage = dirname(dirname(dirname(path)));
    rmSync(join(storage, "message"), { recursive: true, force: true });
    rmSync(join(storage, "part"), { recursive: true, force: true });
    const session = { id: CONTRACT_SESSION, directory: "/work/app", title: "Contract", time: { created: T } };
    writeFileSync(path, JSON.stringify({ ...session, time: { created: T, updated: T + records.length * 1000 } }));
    for (const row of contractRows(records)) {
      const message = { id: row.id, sessionID: CONTRACT_SESSION, role: row.role, time: { created: row.at } };
      const part = { id: `prt_${row.id.slice(4)}`, sessionID: CONTRACT_SESSION, messageID: row.id, ...row.part };
      mkdirSync(join(storage, "message", CONTRACT_SESSION), { recursive: true });
      mkdirSync(join(storage, "part", row.id), { recursive: true });
      writeFileSync(join(storage, "message", CONTRACT_SESSION, `${row.id}.json`), JSON.stringify(message));
      writeFileSync(
        join(storage, "part", row.id, `${part.id}.json`),
        row.malformed ? MALFORMED_LINE : JSON.stringify(part),
      );
    }
  },
  malformedAt: (path, id) => ({ file: join(dirname(dirname(dirname(path))), "part", `msg_${id}`, `prt_${id}.json`) }),
  skip: [{ case: "torn last line", reason: "each record is its own JSON file, written whole" }],
});

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "cairn-opencode-"));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function seededDb(): string {
  const path = join(tempDir(), "opencode.db");
  seed(path);
  return path;
}

async function read(path: string): Promise<ReadResult> {
  return opencodeAdapter.read({ file: { path, agent: "opencode" } });
}

describe("opencode database", () => {
  it("reads one session per row, children as subagents", async () => {
    const result = await read(seededDb());
    expect(result.sessions.map((parsed) => parsed.session)).toEqual([
      {
        id: PARENT,
        agent: "opencode",
        kind: "interactive",
        cwd: "/work/app",
        title: "Fix the login 500",
        startedAt: T,
        updatedAt: T + 9000,
      },
      {
        id: CHILD,
        agent: "opencode",
        kind: "subagent",
        parentId: PARENT,
        cwd: "/work/app",
        title: "Find auth code (@explore subagent)",
        startedAt: T + 2100,
        updatedAt: T + 2600,
      },
    ]);
    expect(result.sessions[1]?.items.map((item) => [item.key, item.role, item.text])).toEqual([
      ["prt_c1", "user", "find auth"],
      ["prt_c2", "assistant", "auth.ts line 40"],
    ]);
    expect(result.resume).toBeUndefined();
  });

  it("orders messages and parts, splits tool parts and turns the summary message into a compaction", async () => {
    const path = seededDb();
    const items = (await read(path)).sessions[0]?.items ?? [];
    expect(items.map((item) => [item.key, item.role, item.text])).toEqual([
      ["prt_01a", "user", "Login fails with a 500"],
      ["prt_02c:call", "tool_call", '{"prompt":"find auth"}'],
      ["prt_02c:result", "tool_result", "auth.ts line 40"],
      ["prt_02d:call", "tool_call", '{"command":"pnpm tset"}'],
      ["prt_02d:result", "tool_result", "command not found: tset"],
      ["prt_02d2:call", "tool_call", '{"command":"pnpm test"}'],
      ["prt_02d2:result", "tool_result", "FAIL auth.test.ts"],
      ["prt_02e:call", "tool_call", '{"filePath":"auth.ts"}'],
      ["prt_02f", "assistant", "Fixed the null check."],
      ["prt_04a", "compaction", "Summary: the login 500 came from a null user; fixed."],
      ["prt_05a", "user", "Thanks"],
    ]);
    expect(items[2]).toMatchObject({ tool: "task", callId: "call_task", isError: false, ts: T + 2600 });
    expect(items[4]).toMatchObject({ tool: "bash", callId: "call_bash", isError: true });
    // Completed, but the command exited 1: the exit code is in the part's metadata.
    expect(items[6]).toMatchObject({ tool: "bash", callId: "call_test", isError: true });
    expect(items[0]).toMatchObject({ ts: T + 1000, origin: { file: path, line: 0 } });
  });

  it("reports a malformed row and counts what it skips", async () => {
    const path = seededDb();
    const result = await read(path);
    expect(result.problems).toEqual([{ file: path, reason: "message msg_02a: malformed data JSON" }]);
    // synthetic text, file, step-start, reasoning, step-finish, patch, compaction marker, orphan part.
    expect(result.skipped).toBe(8);
  });

  it("reads while another connection holds an open write transaction", async () => {
    const path = seededDb();
    const writer = new Database(path);
    try {
      writer.exec("BEGIN IMMEDIATE");
      writer
        .prepare("INSERT INTO message VALUES ('msg_06', ?, ?, ?, ?)")
        .run(PARENT, T + 6000, T + 6000, '{"role":"user"}');
      const result = await read(path);
      expect(result.problems).toHaveLength(1);
      expect(result.sessions).toHaveLength(2);
      writer.exec("COMMIT");
    } finally {
      writer.close();
    }
  });

  it("reports a database without OpenCode's tables as one problem", async () => {
    const path = join(tempDir(), "opencode.db");
    const db = new Database(path);
    db.exec("CREATE TABLE session (id TEXT PRIMARY KEY, title TEXT)");
    db.close();
    const result = await read(path);
    expect(result.sessions).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.reason).toMatch(/missing session\.parent_id.*table message.*table part/);
  });

  it("reports a file that is not a database, or is missing, without throwing", async () => {
    const dir = tempDir();
    const garbage = join(dir, "opencode.db");
    writeFileSync(garbage, "this is not sqlite, just text that is long enough to have a header ".repeat(4));
    const missing = join(dir, "gone.db");
    for (const path of [garbage, missing]) {
      const result = await read(path);
      expect(result.sessions).toEqual([]);
      expect(result.problems).toEqual([{ file: path, reason: expect.stringContaining("unreadable") }]);
    }
  });
});

describe("opencode legacy JSON tree", () => {
  it("reads a session with its messages and parts", async () => {
    const result = await read(legacySession);
    expect(result.sessions).toHaveLength(1);
    const { session, items } = result.sessions[0]!;
    expect(session).toEqual({
      id: "ses_3a1f0c2d9ffeLegacyAbc01",
      agent: "opencode",
      kind: "interactive",
      cwd: "/work/legacy-app",
      title: "Add dark mode",
      startedAt: 1751360400000,
      updatedAt: 1751360460000,
    });
    expect(items.map((item) => [item.key, item.role, item.text])).toEqual([
      ["prt_3a1f0c2e1001LegacyAbc01", "user", "Add a dark mode toggle to settings"],
      ["prt_3a1f0c2e2002LegacyAbc01:call", "tool_call", '{"filePath":"/work/legacy-app/src/settings.tsx"}'],
      ["prt_3a1f0c2e2002LegacyAbc01:result", "tool_result", "export function Settings() {}"],
      ["prt_3a1f0c2e2003LegacyAbc01", "assistant", "Added a toggle bound to the theme store."],
    ]);
    expect(items[0]?.origin.file).toContain("prt_3a1f0c2e1001LegacyAbc01.json");
    expect(result.problems).toEqual([
      { file: expect.stringContaining("prt_3a1f0c2e2004LegacyAbc01.json"), reason: "malformed JSON" },
    ]);
    // The synthetic text and the step-start part.
    expect(result.skipped).toBe(2);
  });
});

describe("opencode legacy JSON tree with a FIFO among its files", () => {
  it("reports a part that is a FIFO as a located problem and reads the rest", async () => {
    const dir = tempDir();
    cpSync(legacyRoot, dir, { recursive: true });
    const fifo = join(dir, "storage", "part", "msg_3a1f0c2e0002LegacyAbc01", "prt_3a1f0c2e2009LegacyAbc01.json");
    try {
      execFileSync("mkfifo", [fifo]);
    } catch {
      return; // No mkfifo on this system: nothing to prove.
    }
    const result = await read(legacySession.replace(legacyRoot, dir));
    expect(result.sessions[0]?.items).toHaveLength(4);
    expect(result.problems).toContainEqual({
      file: fifo,
      reason: "not a regular file (a FIFO, socket or device): never read",
    });
  });
});

describe("opencode discovery", () => {
  it("finds databases (with their WAL as companion) and legacy session files", async () => {
    const dir = tempDir();
    copyFileSync(seededDb(), join(dir, "opencode.db"));
    writeFileSync(join(dir, "opencode-beta.db"), "");
    writeFileSync(join(dir, "opencode.db-wal"), "");
    writeFileSync(join(dir, "auth.json"), "{}");
    expect(await opencodeAdapter.discover(dir)).toEqual([
      { path: join(dir, "opencode-beta.db"), agent: "opencode", companions: [join(dir, "opencode-beta.db-wal")] },
      { path: join(dir, "opencode.db"), agent: "opencode", companions: [join(dir, "opencode.db-wal")] },
    ]);
    expect(await opencodeAdapter.discover(legacyRoot)).toEqual([{ path: legacySession, agent: "opencode" }]);
    const db = join(dir, "opencode.db");
    expect(await opencodeAdapter.discover(db)).toEqual([{ path: db, agent: "opencode", companions: [`${db}-wal`] }]);
    expect(await opencodeAdapter.discover(join(dir, "missing"))).toEqual([]);
  });

  it("roots at OPENCODE_DB, else the XDG data dir", () => {
    const home = "/home/u";
    expect(opencodeAgent.sessionFolders({ OPENCODE_DB: "/data/oc.db" }, home)).toEqual(["/data/oc.db"]);
    expect(opencodeAgent.sessionFolders({ OPENCODE_DB: ":memory:" }, home)).toEqual([
      join(home, ".local", "share", "opencode"),
    ]);
    expect(opencodeAgent.sessionFolders({ XDG_DATA_HOME: "/xdg" }, home)).toEqual([join("/xdg", "opencode")]);
    expect(opencodeAgent.sessionFolders({}, home)).toEqual([join(home, ".local", "share", "opencode")]);
  });
});
