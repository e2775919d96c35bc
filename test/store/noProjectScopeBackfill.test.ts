import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import { runMaintenanceJobs } from "../../src/memory/runMaintenanceJobs.js";
import { migrate } from "../../src/store/migrate.js";
import { migrations } from "../../src/store/migrations/index.js";
import { Storage } from "../../src/store/storage.js";
import { pushingCairn } from "../helpers/pushingCairn.js";
import { tempDir } from "../helpers/tempDir.js";

const PORT = "The API listens on port 3000 locally.";
const HABIT = "I always use pnpm in all my projects.";

/** Makes a store written by this version look like one of version 12, which filed no-project facts as global. */
function asWrittenBeforeNoProjectScope(path: string): void {
  const db = new BetterSqlite3(path);
  db.exec("UPDATE memories SET scope = 'global' WHERE scope = 'no-project'");
  db.exec("DELETE FROM jobs WHERE kind = 'maintenance'");
  db.pragma("user_version = 12");
  db.close();
}

describe("the no-project scope backfill of a store upgraded from schema 12", () => {
  it("takes a projectless session's facts out of every project's recall, and keeps the user-wide habit global", async () => {
    const home = tempDir("cairn-noproject-");
    const project = tempDir("cairn-noproject-repo-");
    {
      const { cairn, push } = pushingCairn(home, { id: "no-cwd" });
      push("user", `${PORT} ${HABIT}`);
      push("assistant", "Noted.");
      cairn.endSession("no-cwd");
      await cairn.run();
      cairn.close();
    }
    asWrittenBeforeNoProjectScope(join(home, "cairn.db"));

    const { cairn } = pushingCairn(home, { id: "no-cwd" });
    try {
      // What the earlier version gave every project, before the job ran.
      const before = await cairn.recall({ query: "API port listens", cwd: project });
      expect(before.results.map((r) => r.content)).toContain(PORT);
      expect(cairn.storage.jobs.get("maintenance", "no-project-scope")?.status).toBe("pending");

      await cairn.run();
      expect(cairn.storage.jobs.get("maintenance", "no-project-scope")?.status).toBe("succeeded");
      const inProject = await cairn.recall({ query: "API port listens", cwd: project });
      expect(inProject.results.map((r) => r.content)).not.toContain(PORT);
      const asked = await cairn.recall({ query: "API port listens", scope: "no-project" });
      expect(asked.results[0]?.content).toBe(PORT);
      const habit = await cairn.recall({ query: "pnpm projects", cwd: project });
      expect(habit.results.map((r) => [r.content, r.scope])).toContainEqual([HABIT, "global"]);
      const moved = asked.results[0]!.id;
      expect(cairn.storage.history.list(moved).map((event) => event.event)).toContain("moved");
    } finally {
      cairn.close();
    }
  });

  it("waits while memory writes are frozen", async () => {
    const home = tempDir("cairn-noproject-");
    {
      const { cairn, push } = pushingCairn(home, { id: "no-cwd" });
      push("user", PORT);
      cairn.endSession("no-cwd");
      await cairn.run();
      cairn.close();
    }
    asWrittenBeforeNoProjectScope(join(home, "cairn.db"));
    const cairn = openCairn({ home, env: {}, config: { "pipeline.mutationsFrozen": true } });
    try {
      expect((await cairn.maintain()).skipped).toContain("pipeline.mutationsFrozen");
      expect(cairn.storage.jobs.get("maintenance", "no-project-scope")?.status).toBe("pending");
    } finally {
      cairn.close();
    }
  });

  it("moves each such memory to its session's project when now known, tombstones included, and a twin's copy to a tombstone", async () => {
    const path = join(tempDir("cairn-noproject-"), "cairn.db");
    const db = new BetterSqlite3(path);
    migrate(db, migrations.slice(0, 12));
    const session = db.prepare(
      "INSERT INTO sessions (id, agent, kind, project_key, started_at, updated_at, created_at) VALUES (?, 'push', 'session', ?, 1, 1, 1)",
    );
    session.run("S-none", null);
    session.run("S-later", "github.com/acme/web");
    const memory = db.prepare(
      `INSERT INTO memories (content, normalized_content, content_hash, type, scope, project, session_id, who, deleted_at, created_at, updated_at)
       VALUES (@content, @content, @hash, @type, @scope, @project, @session, @who, @deleted, 1, 1)`,
    );
    const rows = [
      { content: PORT, type: "fact", scope: "global", project: null, session: "S-none", who: "fact-pipeline" },
      { content: "Deploys go out from main", type: "fact", scope: "global", project: null, session: "S-later" },
      { content: HABIT, type: "preference", scope: "global", project: null, session: "S-none" },
      { content: "Tests run with jest", type: "fact", scope: "global", project: null, session: "S-none", deleted: 5 },
      { content: "The cache lives in .cache", type: "fact", scope: "global", project: null, session: "S-none" },
      { content: "The cache lives in .cache", type: "fact", scope: "no-project", project: null, session: "S-none" },
      {
        content: "Prefer small commits",
        type: "preference",
        scope: "global",
        project: null,
        session: null,
        who: "user",
      },
      { content: "I always squash merges", type: "preference", scope: "global", project: "p", session: "S-later" },
    ];
    rows.forEach((row, i) => {
      const hash = row.content === "The cache lives in .cache" ? "cache" : `h${i}`;
      memory.run({ who: "fact-pipeline", deleted: null, ...row, hash });
    });
    migrate(db, migrations);
    expect(db.prepare("SELECT key, payload FROM jobs WHERE kind = 'maintenance'").all()).toEqual([
      { key: "no-project-scope", payload: '{"upTo":5}' },
    ]);
    db.close();

    const storage = Storage.open(path);
    try {
      expect(await runMaintenanceJobs({ storage, now: () => 100 })).toEqual({
        done: ["no-project-scope"],
        warnings: [],
      });
      const where = (id: number) => {
        const record = storage.memories.get(id)!;
        return [record.scope, record.project, record.deletedAt === null ? "live" : "tombstone"];
      };
      expect([1, 2, 3, 4, 5, 6, 7, 8].map(where)).toEqual([
        ["no-project", null, "live"],
        ["github.com/acme/web", "github.com/acme/web", "live"],
        ["global", null, "live"],
        ["no-project", null, "tombstone"],
        ["no-project", null, "tombstone"],
        ["no-project", null, "live"],
        ["global", null, "live"],
        ["global", "p", "live"],
      ]);
      expect(storage.history.list(5).map((event) => [event.event, event.metadata])).toEqual([
        ["deleted", { from: "global", to: "no-project" }],
      ]);
      // The full-text index follows the scope: a project's recall no longer matches the moved row there.
      const inScope = (scope: string) =>
        (
          storage.db
            .prepare("SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid")
            .all(`{scope_tag} : s${Buffer.from(scope).toString("hex").toUpperCase()}`) as { id: number }[]
        ).map((row) => row.id);
      expect(inScope("global")).toEqual([3, 7, 8]);
      expect(inScope("no-project")).toEqual([1, 6]);
      expect(await runMaintenanceJobs({ storage })).toEqual({ done: [], warnings: [] });
    } finally {
      storage.close();
    }
  });
});
