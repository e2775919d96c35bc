import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { pushingCairn } from "../helpers/pushingCairn.js";
import { tempDir } from "../helpers/tempDir.js";

const STALE = "Command that worked: `cargo check --workspace`";
const FAILED =
  '`cargo check --workspace` failed in this session and never worked after: "failed in sandbox with execution error: command timed out".';

/**
 * A store written before the offline extractor read a timeout as a failure: its "Command that worked"
 * for a command that timed out in the sandbox. Migration 017 queues the re-reading job again (which had
 * already run under 014), and the next run forgets the fact.
 */
describe("migration 017 (command facts read again by the evidence rules)", () => {
  it("forgets a command that timed out but was stored as one that worked", async () => {
    const home = tempDir("cairn-evidence-refresh-");
    const cwd = tempDir("cairn-evidence-refresh-repo-");
    {
      const { cairn, push } = pushingCairn(home, { id: "s1", cwd });
      push("user", "Check that the workspace builds.");
      const tool = (role: "tool_call" | "tool_result", text: string) =>
        cairn.appendHistory("s1", { role, text, tool: "shell", callId: "c1" });
      tool("tool_call", JSON.stringify({ command: ["bash", "-lc", "cargo check --workspace"] }));
      // An older adapter recorded no error flag: the failure is only in the text.
      tool("tool_result", "failed in sandbox with execution error: command timed out");
      push("assistant", "The check could not finish in the sandbox.");
      cairn.endSession("s1");
      await cairn.run();
      const stored = cairn.storage.db.prepare("SELECT content FROM memories WHERE deleted_at IS NULL").all();
      expect(stored).toContainEqual({ content: FAILED });
      cairn.close();
    }
    const db = new BetterSqlite3(join(home, "cairn.db"));
    db.prepare(`INSERT INTO memories (content, normalized_content, content_hash, type, scope, project, session_id,
        who, created_at, updated_at)
      SELECT @content, lower(@content), 'stale-check', 'procedural', scope, project, session_id, who, created_at,
        updated_at FROM memories WHERE content = @failed`).run({ content: STALE, failed: FAILED });
    // The job already ran once, under migration 014.
    db.prepare(`INSERT INTO jobs (kind, key, status, payload, max_attempts, run_after, created_at, updated_at, finished_at)
      VALUES ('maintenance', 'offline-command-facts', 'succeeded', '{"upTo":1}', 5, 0, 1, 1, 1)
      ON CONFLICT(kind, key) DO UPDATE SET status = 'succeeded'`).run();
    db.pragma("user_version = 16");
    db.close();

    const { cairn } = pushingCairn(home, { id: "s1", cwd });
    try {
      expect(cairn.storage.jobs.get("maintenance", "offline-command-facts")?.status).toBe("pending");
      await cairn.run();
      const live = cairn.storage.db.prepare("SELECT content FROM memories WHERE deleted_at IS NULL").all();
      expect(live).not.toContainEqual({ content: STALE });
      expect(live).toContainEqual({ content: FAILED });
    } finally {
      cairn.close();
    }
  });
});
