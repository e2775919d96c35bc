import { describe, expect, it } from "vitest";
import { makeStore } from "./storeFixture.js";

const turn = (item: number, content: string, scope = "conv") => ({
  content,
  scope,
  provenance: { sessionId: "D1", itemFrom: item },
});

/** Memory ids whose indexed neighbour text (the before and/or after column) matches `word`. */
function contextMatches(db: ReturnType<typeof makeStore>["db"], word: string, columns = "before after"): number[] {
  return (
    db
      .prepare("SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid")
      .all(`{${columns}} : ${word}`) as { id: number }[]
  ).map((r) => r.id);
}

describe("contextual indexing", () => {
  it("indexes each memory with the text of the items just before and after in its session", async () => {
    const { db, store } = makeStore();
    const [a, b, c, d] = (await store.remember([
      turn(1, "What do your kids like?"),
      turn(2, "Dinosaurs, mostly."),
      turn(3, "We went to the museum."),
      turn(5, "Unrelated later turn about gardening."),
    ])) as { id: number }[];
    // "dinosaurs" (item 2) lands in the context of items 1 and 3, never in its own context.
    expect(contextMatches(db, "dinosaurs")).toEqual([a!.id, c!.id]);
    expect(contextMatches(db, "dinosaurs", "after")).toEqual([a!.id]);
    expect(contextMatches(db, "dinosaurs", "before")).toEqual([c!.id]);
    expect(contextMatches(db, "dinosaurs", "after")).toEqual([a!.id]);
    expect(contextMatches(db, "dinosaurs", "before")).toEqual([c!.id]);
    // Item 5 is two items from item 3: outside the window.
    expect(contextMatches(db, "museum")).toEqual([b!.id]);
    expect(contextMatches(db, "gardening")).toEqual([]);
    // An item arriving later updates its neighbours' context.
    const [e] = (await store.remember([turn(4, "The bones were huge.")])) as { id: number }[];
    expect(contextMatches(db, "bones")).toEqual([c!.id, d!.id]);
    // A tombstone leaves its neighbours' context.
    store.forget(e!.id);
    expect(contextMatches(db, "bones")).toEqual([]);
  });

  it("keeps sessions and scopes apart, and skips memories without a position", async () => {
    const { db, store } = makeStore();
    await store.remember([
      turn(1, "alpha words"),
      turn(2, "beta words", "other"),
      { content: "gamma words", scope: "conv" },
    ]);
    expect(contextMatches(db, "alpha")).toEqual([]);
    expect(contextMatches(db, "gamma")).toEqual([]);
  });

  it("finds an answer through its neighbour's words only when the context weight is on", async () => {
    const memories = [
      turn(1, "What do your kids like?"),
      turn(2, "Dinosaurs, mostly."),
      turn(9, "The weather was fine."),
    ];
    // The conversation profile's weights (the default agent profile leaves the neighbours' text out).
    const on = makeStore({ config: { contextIndex: { before: 0.5, after: 0.2 } } });
    await on.store.remember(memories);
    const withContext = await on.store.recall({ query: "kids", scopes: ["conv"], countUsage: false });
    expect(withContext.results.map((r) => r.content)).toContain("Dinosaurs, mostly.");
    const off = makeStore({ config: { contextIndex: { before: 0, after: 0 }, context: { enabled: false } } });
    await off.store.remember(memories);
    const without = await off.store.recall({ query: "kids", scopes: ["conv"], countUsage: false });
    expect(without.results.map((r) => r.content)).toEqual(["What do your kids like?"]);
  });
});
