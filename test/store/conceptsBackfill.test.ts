import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runMaintenanceJobs } from "../../src/memory/runMaintenanceJobs.js";
import { migrate } from "../../src/store/migrate.js";
import { migrations } from "../../src/store/migrations/index.js";
import { Storage } from "../../src/store/storage.js";
import { conceptWords, shippedLexicon } from "../../src/text/lexicon/concepts.js";
import { tempDir } from "../helpers/tempDir.js";

const CONTENTS = [
  "We went swimming at the lake",
  "The fence needs paint",
  "Gone swimming again",
  "She plays the guitar and the violin in a band",
  "Meeting notes without nouns we know: zxqv",
];

/** A store at schema 3 (before concept indexing) holding memories; the third one is tombstoned. */
function storeAtVersion3(path: string): void {
  const db = new BetterSqlite3(path);
  migrate(db, migrations.slice(0, 3));
  const insert = db.prepare(
    `INSERT INTO memories (content, normalized_content, content_hash, scope, session_id, item_from, deleted_at, created_at, updated_at)
     VALUES (?, ?, ?, 'conv', 'S1', ?, ?, 1, 1)`,
  );
  CONTENTS.forEach((content, i) => {
    insert.run(content, content.toLowerCase(), `h${i}`, i + 1, i === 2 ? 5 : null);
  });
  db.close();
}

describe("the concepts backfill of a store upgraded from schema 3", () => {
  it("ends with the concept words the old migration computed: conceptWords of each live memory at depth 2", async () => {
    {
      const path = join(tempDir("cairn-concepts-"), "cairn.db");
      storeAtVersion3(path);
      const storage = Storage.open(path);
      try {
        const concepts = () =>
          storage.db
            .prepare("SELECT content, deleted_at AS deletedAt, concept_terms AS t FROM memories ORDER BY id")
            .all() as {
            content: string;
            deletedAt: number | null;
            t: string | null;
          }[];
        expect(concepts().every((row) => row.t === null)).toBe(true);

        expect(await runMaintenanceJobs({ storage })).toEqual({ done: ["concepts-backfill"], warnings: [] });

        const lexicon = shippedLexicon();
        const expected = concepts().map((row) => {
          const words = row.deletedAt === null ? conceptWords(row.content, lexicon, 2) : [];
          return words.length > 0 ? words.join(" ") : null;
        });
        expect(concepts().map((row) => row.t)).toEqual(expected);
        expect(concepts()[0]!.t).toBe("aquatics sport water thing");
        // The update trigger re-indexed the rows: the concepts column of the full-text index answers.
        const match = storage.db
          .prepare("SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid")
          .all("{concepts} : sport") as { id: number }[];
        expect(match.map((r) => r.id)).toEqual([1]);
        expect(storage.jobs.get("maintenance", "concepts-backfill")?.status).toBe("succeeded");
        // A second run finds nothing to do.
        expect(await runMaintenanceJobs({ storage })).toEqual({ done: [], warnings: [] });
      } finally {
        storage.close();
      }
    }
  });
});
