import { afterEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { tempDir } from "../helpers/tempDir.js";

// Document frequencies are kept between lookups while the index is unchanged (searchRepository.ts):
// a process that recalls again and again must still see every change, whoever made it.

const opened: Cairn[] = [];
afterEach(() => {
  for (const cairn of opened.splice(0)) cairn.close();
});

function open(home: string): Cairn {
  const cairn = new Cairn({ home, env: {} });
  opened.push(cairn);
  return cairn;
}

describe("document frequencies kept between recalls", () => {
  it("follow this connection's writes, another connection's, and a transaction's pending changes", async () => {
    const home = tempDir();
    const cairn = open(home);
    const other = open(home);
    const frequency = () => cairn.storage.search.documentFrequencies(["zebra"]).get("zebra");

    await cairn.remember({ content: "The zebra crossing test runs every night", scope: "global" });
    expect(frequency()).toBe(1);
    expect(frequency()).toBe(1);
    await cairn.remember({ content: "A zebra stripe in the log marks a flaky test", scope: "global" });
    expect(frequency()).toBe(2);

    const [third] = await other.remember({ content: "Zebra is the code name of the billing service", scope: "global" });
    expect(frequency()).toBe(3);
    other.forgetMemory({ id: third!.id! });
    expect(frequency()).toBe(2);

    // Inside a transaction the index shows changes not yet committed; none of them is kept after a rollback.
    const db = cairn.storage.db;
    const rolledBack = db.transaction(() => {
      cairn.storage.memories.restore(third!.id!, Date.now());
      expect(frequency()).toBe(3);
      throw new Error("rolled back");
    });
    expect(rolledBack).toThrow("rolled back");
    expect(frequency()).toBe(2);
  });
});
