import { afterEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { tempDir } from "../helpers/tempDir.js";

// A word's document frequency for a search counts the documents holding it in the columns that search
// matches, as FTS5's bm25() does: the neighbours' text written for contextual indexing must not make a
// word look common to a profile that does not search it (the calibration's ideal would drop with it).

const opened: Cairn[] = [];
afterEach(() => {
  for (const cairn of opened.splice(0)) cairn.close();
});

describe("document frequencies per searched column", () => {
  it("count a word once per memory, in the columns searched only", async () => {
    // Under the conversation profile the store writes the neighbours' text (neighbourTextSwitch.test.ts).
    const cairn = new Cairn({ home: tempDir(), env: {}, config: { "recall.profile": "conversation" } });
    opened.push(cairn);
    const said = ["The zebra job rotates the logs", "Backups run at night", "Zebra stripes mark flaky tests"];
    await cairn.remember(
      said.map((content, i) => ({ content, scope: "global", provenance: { sessionId: "s", itemFrom: i + 1 } })),
    );
    const { search } = cairn.storage;
    // In every word column: both zebra memories, and the backup memory whose neighbours say it.
    expect(search.documentFrequencies(["zebra"]).get("zebra")).toBe(3);
    const everyColumn = { context: { before: 0.5, after: 0.2 }, concepts: 0.4, terms: 0.6 };
    expect(search.documentFrequencies(["zebra"], everyColumn).get("zebra")).toBe(3);
    const bodyOnly = { context: { before: 0, after: 0 }, concepts: 0, terms: 0.6 };
    expect(search.documentFrequencies(["zebra", "backup", "absent"], bodyOnly)).toEqual(
      new Map([
        ["zebra", 2],
        ["backup", 1],
        ["absent", 0],
      ]),
    );
    // Asked again with the other columns, the memo keeps the counts apart.
    expect(
      search.documentFrequencies(["zebra"], { ...bodyOnly, context: { before: 0.5, after: 0 } }).get("zebra"),
    ).toBe(3);
    expect(search.documentFrequencies(["zebra"], bodyOnly).get("zebra")).toBe(2);
  });
});
