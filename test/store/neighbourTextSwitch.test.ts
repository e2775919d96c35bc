import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { followNeighbourText } from "../../src/store/followNeighbourText.js";
import { migrate } from "../../src/store/migrate.js";
import { migrations } from "../../src/store/migrations/index.js";
import type { Storage } from "../../src/store/storage.js";
import { tempDir } from "../helpers/tempDir.js";

// Contextual indexing (each memory indexed with its session neighbours' text) belongs to the recall
// profile, index side included: a column a search leaves out still counts in FTS5's document length.
// The store indexes the neighbours' text only while the profile searches it, and follows a switch.

const opened: Cairn[] = [];
afterEach(() => {
  for (const cairn of opened.splice(0)) cairn.close();
});

function open(home: string, profile: "agent" | "conversation"): Cairn {
  const cairn = new Cairn({ home, env: {}, config: { "llm.provider": "offline", "recall.profile": profile } });
  opened.push(cairn);
  return cairn;
}

/** Memory ids whose FTS row matches `expr`. */
function matching(db: BetterSqlite3.Database, expr: string): number[] {
  const rows = db.prepare("SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid").all(expr);
  return (rows as { id: number }[]).map((r) => r.id);
}

const SESSION = ["The zebra job rotates the logs", "Backups run at night", "Nightly builds publish the docs"];
const positioned = (content: string, i: number) => ({
  content,
  scope: "global",
  provenance: { sessionId: "s", itemFrom: i + 1 },
});

describe("the neighbours' text in the index", () => {
  it("is written under the conversation profile, not under agent, and follows a switch both ways", async () => {
    const home = tempDir();
    const talk = open(home, "conversation");
    const ids = (await talk.remember(SESSION.map(positioned))).map((o) => o.id!);
    // The backup memory carries its neighbours' words.
    expect(matching(talk.storage.db, "{before after} : zebra")).toEqual([ids[1]]);
    talk.close();

    const agent = open(home, "agent");
    expect(matching(agent.storage.db, "{before after} : (zebra OR backups OR nightly)")).toEqual([]);
    expect(matching(agent.storage.db, "{body} : zebra")).toEqual([ids[0]]);
    // Written under agent, a memory's text goes to no neighbour's row.
    const [later] = await agent.remember(positioned("Release notes name every zebra fix", 3));
    expect(matching(agent.storage.db, "{before after} : release")).toEqual([]);
    agent.close();

    const again = open(home, "conversation");
    // The later memory says "zebra" too: its neighbour carries it now.
    expect(matching(again.storage.db, "{before after} : zebra")).toEqual([ids[1], ids[2]]);
    expect(matching(again.storage.db, "{before after} : release")).toEqual([ids[2]]);
    expect(matching(again.storage.db, "{body} : release")).toEqual([later!.id]);
  });

  it("stays as it was through migration 018: the switch reads on until a profile turns it off", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, migrations.slice(0, 17));
    const insert = db.prepare(
      `INSERT INTO memories (content, normalized_content, content_hash, scope, session_id, item_from, created_at, updated_at)
       VALUES (?, ?, ?, 'global', 's', ?, 1, 1)`,
    );
    for (const [i, content] of SESSION.entries()) insert.run(content, content, `h${i}`, i + 1);
    migrate(db, migrations.slice(0, 18));
    expect(matching(db, "{before after} : zebra")).toEqual([2]);
    insert.run("Release notes name every zebra fix", "r", "h9", 4);
    expect(matching(db, "{before after} : release")).toEqual([3]);
    db.close();
  });

  it("leaves the index as it is when the store cannot be written now, and reports a damaged one", () => {
    const failing = (code: string) =>
      ({
        search: {
          indexNeighbourText: () => {
            throw Object.assign(new Error(`${code}: the write failed`), { code });
          },
        },
      }) as unknown as Storage;
    const off = { before: 0, after: 0 };
    expect(followNeighbourText(failing("SQLITE_FULL"), off)).toMatch(
      /^cairn: the search index was not changed .*SQLITE_FULL.*the next start tries again$/,
    );
    expect(followNeighbourText(failing("SQLITE_BUSY"), off)).toMatch(/SQLITE_BUSY/);
    expect(() => followNeighbourText(failing("SQLITE_CORRUPT"), off)).toThrow(/SQLITE_CORRUPT/);
  });
});
