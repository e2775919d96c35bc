import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { Cairn } from "../../src/index.js";
import { pushingCairn } from "../helpers/pushingCairn.js";
import { tempDir } from "../helpers/tempDir.js";

const CHECK = "Command that worked: `npm run check`";
const TESTS = "Command that worked: `npm test -- --runInBand`";
const BUILD = "Command that worked: `npm run build`";
const OLD_FIX = '`npm test` failed with "Debugger attached."; `npm test -- --runInBand` later succeeded.';
const FIX = '`npm test` failed with "FAIL src/a.test.ts"; `npm test -- --runInBand` later succeeded.';

/**
 * A session whose check failed (grep found compiler errors, so grep exited 0), whose tests failed and
 * then passed run in band (another command of the family: a fix; the same command passing would be the
 * work itself), and whose build has no recorded result.
 */
function pushSession(cairn: Cairn, push: (role: "user" | "assistant", text: string) => number): void {
  push("user", "Run the type check and the tests.");
  const tool = (role: "tool_call" | "tool_result", callId: string, text: string) =>
    cairn.appendHistory("s1", { role, text, tool: "bash", callId });
  tool("tool_call", "c1", JSON.stringify({ command: "npm run check 2>&1 | grep error" }));
  tool("tool_result", "c1", "src/a.ts(3,1): error TS2345: Argument of type 'undefined' is not assignable.");
  tool("tool_call", "c2", JSON.stringify({ command: "npm test" }));
  cairn.appendHistory("s1", {
    role: "tool_result",
    text: "Debugger attached.\nFAIL src/a.test.ts",
    tool: "bash",
    callId: "c2",
    isError: true,
  });
  tool("tool_call", "c3", JSON.stringify({ command: "npm test -- --runInBand" }));
  tool("tool_result", "c3", "Tests  3 passed (3)");
  tool("tool_call", "c4", JSON.stringify({ command: "npm run build" }));
  cairn.endSession("s1");
}

/**
 * What an earlier version stored besides: the piped check as a command that worked, the build whose
 * result it never saw as one, and the fix quoting the inspector's notice as the error.
 */
function asWrittenBeforeTheStricterReading(path: string): void {
  const db = new BetterSqlite3(path);
  const insert = db.prepare(`INSERT INTO memories (content, normalized_content, content_hash, type, scope, project,
      session_id, who, created_at, updated_at)
    SELECT @content, lower(@content), @hash, type, scope, project, session_id, who, created_at, updated_at
    FROM memories WHERE content = '${TESTS}'`);
  insert.run({ content: CHECK, hash: "old-check" });
  insert.run({ content: BUILD, hash: "old-build" });
  insert.run({ content: OLD_FIX, hash: "old-fix" });
  db.exec("DELETE FROM jobs WHERE kind = 'maintenance'");
  db.pragma("user_version = 13");
  db.close();
}

describe("the offline command facts of a store upgraded from schema 13", () => {
  it("forgets a command fact its session no longer shows, rewords one it shows in other words, leaves one it cannot tell", async () => {
    const home = tempDir("cairn-command-facts-");
    const cwd = tempDir("cairn-command-facts-repo-");
    {
      const { cairn, push } = pushingCairn(home, { id: "s1", cwd });
      pushSession(cairn, push);
      await cairn.run();
      const stored = cairn.storage.db.prepare("SELECT content FROM memories WHERE deleted_at IS NULL").all();
      expect(stored).toContainEqual({ content: TESTS });
      expect(stored).not.toContainEqual({ content: CHECK });
      cairn.close();
    }
    asWrittenBeforeTheStricterReading(join(home, "cairn.db"));

    const { cairn } = pushingCairn(home, { id: "s1", cwd });
    try {
      const live = () =>
        (
          cairn.storage.db.prepare("SELECT content FROM memories WHERE deleted_at IS NULL ORDER BY id").all() as {
            content: string;
          }[]
        )
          .map((row) => row.content)
          .filter((content) => content.startsWith("Command that worked"));
      expect(live()).toEqual([TESTS, CHECK, BUILD]);
      expect(cairn.storage.jobs.get("maintenance", "offline-command-facts")?.status).toBe("pending");

      await cairn.run();
      expect(cairn.storage.jobs.get("maintenance", "offline-command-facts")?.status).toBe("succeeded");
      expect(live()).toEqual([TESTS, BUILD]);
      const fixes = cairn.storage.db
        .prepare(
          "SELECT content, deleted_at IS NULL AS live FROM memories WHERE content LIKE '%later succeeded.' ORDER BY id",
        )
        .all();
      expect(fixes).toEqual([
        { content: FIX, live: 1 },
        { content: OLD_FIX, live: 0 },
      ]);
      const old = cairn.storage.db.prepare("SELECT id FROM memories WHERE content_hash = 'old-check'").get() as {
        id: number;
      };
      expect(cairn.storage.history.list(old.id).map((event) => [event.event, event.who])).toEqual([
        ["deleted", "maintenance"],
      ]);
      const { results } = await cairn.recall({ query: "npm run check", cwd });
      expect(results.map((r) => r.content)).not.toContain(CHECK);
    } finally {
      cairn.close();
    }
  });
});
