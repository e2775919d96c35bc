import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { opencodeAdapter } from "../../src/sources/opencode.js";

/**
 * OpenCode 1.2's `opencode.db` as its own migrations lay it out, restated here (not copied): the first
 * migration, `packages/opencode/migration/20260127222353_familiar_lady_ursula` (read in the forks
 * panyw5/opencode @1518bd83 and exa-labs/opencoded @97279e2e), with its foreign keys and indexes, then the
 * session columns later migrations added (anomalyco/opencode `src/session/session.sql.ts` @063e8306:
 * workspace, path, cost, tokens, agent, model, goal) and the `session_message` table newer versions write
 * beside `message`. WAL journal and foreign keys on, as OpenCode opens it.
 */
const UPSTREAM_SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, icon_url text,
  icon_color text, time_created integer NOT NULL, time_updated integer NOT NULL, time_initialized integer,
  sandboxes text NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL,
  CONSTRAINT fk_message_session FOREIGN KEY (session_id) REFERENCES session(id) ON DELETE CASCADE);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL,
  CONSTRAINT fk_part_message FOREIGN KEY (message_id) REFERENCES message(id) ON DELETE CASCADE);
CREATE TABLE permission (project_id text PRIMARY KEY, time_created integer NOT NULL, time_updated integer NOT NULL,
  data text NOT NULL, CONSTRAINT fk_permission_project FOREIGN KEY (project_id) REFERENCES project(id) ON DELETE CASCADE);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL,
  directory text NOT NULL, title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer,
  summary_deletions integer, summary_files integer, summary_diffs text, revert text, permission text,
  time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer,
  CONSTRAINT fk_session_project FOREIGN KEY (project_id) REFERENCES project(id) ON DELETE CASCADE);
CREATE TABLE todo (session_id text NOT NULL, content text NOT NULL, status text NOT NULL, priority text NOT NULL,
  position integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL,
  CONSTRAINT todo_pk PRIMARY KEY (session_id, position),
  CONSTRAINT fk_todo_session FOREIGN KEY (session_id) REFERENCES session(id) ON DELETE CASCADE);
CREATE TABLE session_share (session_id text PRIMARY KEY, id text NOT NULL, secret text NOT NULL, url text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL,
  CONSTRAINT fk_session_share_session FOREIGN KEY (session_id) REFERENCES session(id) ON DELETE CASCADE);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);
CREATE INDEX part_session_idx ON part (session_id);
CREATE INDEX session_project_idx ON session (project_id);
CREATE INDEX session_parent_idx ON session (parent_id);
CREATE INDEX todo_session_idx ON todo (session_id);
ALTER TABLE session ADD COLUMN workspace_id text;
ALTER TABLE session ADD COLUMN path text;
ALTER TABLE session ADD COLUMN cost real NOT NULL DEFAULT 0;
ALTER TABLE session ADD COLUMN tokens_input integer NOT NULL DEFAULT 0;
ALTER TABLE session ADD COLUMN tokens_output integer NOT NULL DEFAULT 0;
ALTER TABLE session ADD COLUMN agent text;
ALTER TABLE session ADD COLUMN model text;
ALTER TABLE session ADD COLUMN goal text;
CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE,
  type text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
`;

const T = 1_771_000_000_000;
const SESSION = "ses_3b0c1d2e3f40ZkilnMain0001";
const CHILD = "ses_3b0c1d2e3f41ZkilnExpl0002";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A 1.2 database holding one session with a subagent, rows written the way OpenCode 1.2 writes them. */
function upstreamDb(): string {
  const dir = mkdtempSync(join(tmpdir(), "cairn-opencode-upstream-"));
  temps.push(dir);
  const path = join(dir, "opencode.db");
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.exec(UPSTREAM_SCHEMA);
  db.prepare(
    "INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, 'git', ?, ?, '[]')",
  ).run("4f1c0a9e7d3b2c1a0f9e8d7c6b5a4f3e2d1c0b9a", "/home/dev/kiln", T, T);
  const session = db.prepare(
    "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated, agent, model) VALUES (?, '4f1c0a9e7d3b2c1a0f9e8d7c6b5a4f3e2d1c0b9a', ?, ?, '/home/dev/kiln', ?, '1.2.10', ?, ?, 'build', ?)",
  );
  const model = JSON.stringify({ id: "claude-sonnet-5", providerID: "anthropic" });
  session.run(SESSION, null, "quiet-kiln", "Fix the glaze check", T, T + 60_000, model);
  session.run(CHILD, SESSION, "swift-heron", "Find the glaze code (@explore subagent)", T + 5000, T + 9000, model);
  const message = db.prepare("INSERT INTO message VALUES (?, ?, ?, ?, ?)");
  const part = db.prepare("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)");
  const msg = (id: string, sessionId: string, at: number, data: object) =>
    message.run(id, sessionId, at, at, JSON.stringify(data));
  const prt = (id: string, messageId: string, sessionId: string, at: number, data: object) =>
    part.run(id, messageId, sessionId, at, at, JSON.stringify(data));
  const assistant = (at: number, extra: object = {}) => ({
    role: "assistant",
    time: { created: at, completed: at + 900 },
    parentID: "msg_c0de0001",
    modelID: "claude-sonnet-5",
    providerID: "anthropic",
    mode: "build",
    agent: "build",
    path: { cwd: "/home/dev/kiln", root: "/home/dev/kiln" },
    cost: 0.01,
    tokens: { input: 1200, output: 80, reasoning: 0, cache: { read: 0, write: 0 } },
    finish: "tool-calls",
    ...extra,
  });
  msg("msg_c0de0001", SESSION, T + 1000, {
    role: "user",
    time: { created: T + 1000 },
    agent: "build",
    model: { providerID: "anthropic", modelID: "claude-sonnet-5" },
  });
  prt("prt_c0de0001a", "msg_c0de0001", SESSION, T + 1000, { type: "text", text: "The glaze check fails; fix it." });
  msg("msg_c0de0002", SESSION, T + 2000, assistant(T + 2000));
  prt("prt_c0de0002a", "msg_c0de0002", SESSION, T + 2000, { type: "step-start", snapshot: "4b825dc6" });
  prt("prt_c0de0002b", "msg_c0de0002", SESSION, T + 2001, {
    type: "text",
    text: "Running the tests.",
    time: { start: T + 2001, end: T + 2002 },
  });
  const bash = (exit: number, output: string) => ({
    type: "tool",
    callID: `toolu_exit${exit}`,
    tool: "bash",
    state: {
      status: "completed",
      input: { command: "cargo test", description: "Run the tests" },
      output,
      title: "cargo test",
      metadata: { output, exit, description: "Run the tests", truncated: false },
      time: { start: T + 2100, end: T + 2900 },
    },
  });
  prt("prt_c0de0002c", "msg_c0de0002", SESSION, T + 2100, bash(101, "test result: FAILED. 3 passed; 1 failed"));
  prt("prt_c0de0002d", "msg_c0de0002", SESSION, T + 2950, {
    type: "tool",
    callID: "toolu_edit",
    tool: "edit",
    state: {
      status: "error",
      input: { filePath: "/home/dev/kiln/src/glaze.rs", oldString: "1200", newString: "1250" },
      error: "Error: oldString not found in content",
      time: { start: T + 2950, end: T + 2960 },
    },
  });
  prt("prt_c0de0002e", "msg_c0de0002", SESSION, T + 2990, {
    type: "step-finish",
    reason: "tool-calls",
    cost: 0.01,
    tokens: { input: 1200, output: 80 },
  });
  msg("msg_c0de0003", SESSION, T + 3000, assistant(T + 3000, { finish: "stop" }));
  prt("prt_c0de0003a", "msg_c0de0003", SESSION, T + 3000, bash(0, "test result: ok. 4 passed; 0 failed"));
  prt("prt_c0de0003b", "msg_c0de0003", SESSION, T + 3100, {
    type: "text",
    text: "Fixed the glaze check; all four tests pass.",
  });
  msg("msg_c0de0004", SESSION, T + 4000, assistant(T + 4000, { summary: true, mode: "compaction", finish: "stop" }));
  prt("prt_c0de0004a", "msg_c0de0004", SESSION, T + 4000, {
    type: "text",
    text: "Summary: the glaze check used the wrong constant; fixed and tested.",
  });
  msg("msg_c0de0101", CHILD, T + 5000, {
    role: "user",
    time: { created: T + 5000 },
    agent: "explore",
    model: { providerID: "anthropic", modelID: "claude-sonnet-5" },
  });
  prt("prt_c0de0101a", "msg_c0de0101", CHILD, T + 5000, {
    type: "text",
    text: "Find where the glaze temperature is checked.",
  });
  db.close();
  return path;
}

describe("opencode 1.2 database, upstream schema", () => {
  it("reads sessions, messages, parts, outcomes and the compaction from OpenCode's own tables", async () => {
    const result = await opencodeAdapter.read({ file: { path: upstreamDb(), agent: "opencode" } });
    expect(result.problems).toEqual([]);
    const [main, child] = result.sessions;
    expect(main?.session).toMatchObject({
      id: SESSION,
      kind: "interactive",
      cwd: "/home/dev/kiln",
      title: "Fix the glaze check",
    });
    expect(child?.session).toMatchObject({ id: CHILD, kind: "subagent", parentId: SESSION });
    expect(
      main?.items.map((item) => [
        item.role,
        item.tool,
        item.role === "tool_result" ? (item.isError ? "failed" : "worked") : undefined,
        item.text.split("\n")[0],
      ]),
    ).toEqual([
      ["user", undefined, undefined, "The glaze check fails; fix it."],
      ["assistant", undefined, undefined, "Running the tests."],
      ["tool_call", "bash", undefined, expect.stringContaining("cargo test")],
      ["tool_result", "bash", "failed", "test result: FAILED. 3 passed; 1 failed"],
      ["tool_call", "edit", undefined, expect.stringContaining("glaze.rs")],
      ["tool_result", "edit", "failed", "Error: oldString not found in content"],
      ["tool_call", "bash", undefined, expect.stringContaining("cargo test")],
      ["tool_result", "bash", "worked", "test result: ok. 4 passed; 0 failed"],
      ["assistant", undefined, undefined, "Fixed the glaze check; all four tests pass."],
      ["compaction", undefined, undefined, "Summary: the glaze check used the wrong constant; fixed and tested."],
    ]);
  });
});
