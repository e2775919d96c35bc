import { describe, expect, it } from "vitest";
import { makeStore } from "./storeFixture.js";

const memories = [
  { content: "Yesterday we went swimming at the lake with the whole family.", scope: "conv" },
  { content: "The weather was fine and the lake was calm.", scope: "conv" },
  { content: "I repaired the fence in the garden.", scope: "conv" },
];

describe("concept indexing", () => {
  it("stores the category words of a memory's nouns in their own FTS column", async () => {
    const { db, store } = makeStore();
    const [swim] = (await store.remember(memories)) as { id: number }[];
    const row = db.prepare("SELECT concept_terms FROM memories WHERE id = ?").get(swim!.id) as {
      concept_terms: string;
    };
    expect(row.concept_terms.split(" ")).toEqual(expect.arrayContaining(["aquatics", "sport"]));
    const matches = db
      .prepare("SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ?")
      .all("{concepts} : sport") as { id: number }[];
    expect(matches.map((m) => m.id)).toEqual([swim!.id]);
  });

  it("finds a memory through a category it never mentions, only with the concept column on", async () => {
    const on = makeStore({ config: { profile: "conversation" } });
    await on.store.remember(memories);
    const found = await on.store.recall({ query: "Which sports does she do?", scopes: ["conv"], countUsage: false });
    expect(found.results[0]?.content).toBe(memories[0]!.content);
    const off = makeStore({ config: { profile: "conversation", conceptIndex: { weight: 0 } } });
    await off.store.remember(memories);
    const missed = await off.store.recall({ query: "Which sports does she do?", scopes: ["conv"], countUsage: false });
    expect(missed.results.map((r) => r.content)).not.toContain(memories[0]!.content);
  });

  it("reads a question for a kind of a category as asking for an instance of it", async () => {
    const talk = { content: "That sport is really fun to watch, what a game!", scope: "conv" };
    const ranked = async (categoryRepeat: number) => {
      const { store } = makeStore({ config: { profile: "conversation", conceptIndex: { categoryRepeat } } });
      await store.remember([...memories, talk]);
      const found = await store.recall({
        query: "What kind of sport does she do?",
        scopes: ["conv"],
        countUsage: false,
      });
      return found.results.map((r) => r.content);
    };
    expect((await ranked(1)).slice(0, 2)).toEqual([memories[0]!.content, talk.content]);
    expect((await ranked(0)).slice(0, 2)).toEqual([talk.content, memories[0]!.content]);
  });

  it("indexes nothing when the depth is 0", async () => {
    const { db, store } = makeStore({ config: { conceptIndex: { depth: 0 } } });
    await store.remember(memories);
    expect(db.prepare("SELECT count(*) AS n FROM memories WHERE concept_terms IS NOT NULL").get()).toEqual({ n: 0 });
  });

  it("searches a query's category words in the concept column alone", async () => {
    const { store } = makeStore();
    const [swim, , , sportsDay] = (await store.remember([
      ...memories,
      { content: "Sports day at school was fun.", scope: "conv" },
    ])) as { id: number }[];
    const ids = (concepts: number, conceptMatch: string) =>
      store.storage.search
        .keyword({ match: '"zzzz"', scopes: ["conv"], limit: 10, concepts, conceptMatch })
        .map((h) => h.id);
    expect(ids(0.4, '"sports"')).toEqual([swim!.id]);
    expect(ids(0.4, '"sports"')).not.toContain(sportsDay!.id);
    expect(ids(0, '"sports"')).toEqual([]);
    expect(ids(0.4, "")).toEqual([]);
  });
});
