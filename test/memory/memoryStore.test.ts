import { describe, expect, it } from "vitest";
import { makeStore } from "./storeFixture.js";

function ftsIds(db: ReturnType<typeof makeStore>["db"], word: string): number[] {
  return (
    db.prepare("SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid").all(word) as {
      id: number;
    }[]
  ).map((r) => r.id);
}

describe("MemoryStore", () => {
  it("keeps the FTS index in sync on insert, update and delete", async () => {
    const { db, store } = makeStore();
    const a = await store.remember({ content: "The deploy script lives in scripts/deploy.sh" });
    expect(ftsIds(db, "deploy")).toEqual([a.id]);
    db.prepare("UPDATE memories SET content = 'Releases are tagged by CI' WHERE id = ?").run(a.id);
    expect(ftsIds(db, "deploy")).toEqual([]);
    expect(ftsIds(db, "releases")).toEqual([a.id]);
    expect(store.forget(a.id!)).toBe(true);
    expect(ftsIds(db, "releases")).toEqual([]);
    const b = await store.remember({ content: "Releases are tagged by CI" });
    db.prepare("DELETE FROM memories WHERE id = ?").run(b.id);
    expect(ftsIds(db, "releases")).toEqual([]);
  });

  it("dedupes by normalized hash within a scope, not across scopes", async () => {
    const { store } = makeStore();
    const first = await store.remember({ content: "Use pnpm, not npm.", scope: "p1" });
    const again = await store.remember({ content: "  use PNPM, not npm ", scope: "p1" });
    const other = await store.remember({ content: "Use pnpm, not npm.", scope: "p2" });
    expect(first.status).toBe("created");
    expect(again).toMatchObject({ status: "deduped", id: first.id });
    expect(other.status).toBe("created");
    expect(store.counts()).toMatchObject({ live: 2, byScope: { p1: 1, p2: 1 } });
  });

  it("skips empty content and stores after a tombstone", async () => {
    const { store } = makeStore();
    expect(await store.remember({ content: "   " })).toMatchObject({ status: "skipped", reason: "empty_content" });
    const a = await store.remember({ content: "Tabs, not spaces" });
    store.forget(a.id!, { reason: "changed my mind" });
    const b = await store.remember({ content: "Tabs, not spaces" });
    expect(b.status).toBe("created");
    expect(store.historyOf(a.id!).map((e) => e.event)).toEqual(["created", "deleted"]);
    expect(store.get(a.id!)?.deletedAt).not.toBeNull();
  });

  it("protects decisions and links entities at write time", async () => {
    const { store } = makeStore();
    const d = await store.remember({ content: "We decided to use PostgreSQL over MySQL for the Billing service" });
    expect(store.get(d.id!)).toMatchObject({ type: "decision", importance: 0.85 });
    const plain = await store.remember({ content: "the tests take four minutes" });
    expect(store.get(plain.id!)).toMatchObject({ type: "fact", importance: 0.5 });
    expect(store.storage.graph.counts().mentions).toBeGreaterThanOrEqual(2);
  });

  it("stores vectors outside the transaction and keeps raw-first when the provider fails", async () => {
    const failing = {
      name: "down",
      model: "down-1",
      dimensions: 8,
      embed: async () => Promise.reject(new Error("offline")),
      available: async () => false,
    };
    const { store } = makeStore({ embeddings: failing });
    const a = await store.remember({ content: "cached builds live in .turbo" });
    expect(a.status).toBe("created");
    expect(a.warnings).toEqual([expect.stringContaining("the embedding provider failed: offline")]);
    expect(store.get(a.id!)?.embeddingModel).toBeNull();
    expect(store.counts().staleVectors).toBe(1);
    const r = await store.recall({ query: "where are cached builds", scopes: "all" });
    expect(r.results.map((x) => x.id)).toEqual([a.id]);
    expect(r.warnings.some((w) => w.includes("vector leg skipped"))).toBe(true);
  });

  it("recalls only the requested scopes, counts usage, and expands provenance from session items", async () => {
    const { db, store } = makeStore();
    db.prepare(
      "INSERT INTO sessions (id, agent, kind, started_at, updated_at, created_at) VALUES ('s1','codex','interactive',0,0,0)",
    ).run();
    const insert = db.prepare("INSERT INTO items (session_id, seq, key, role, text) VALUES ('s1', ?, ?, ?, ?)");
    insert.run(1, "k1", "user", "how do we run the linter?");
    insert.run(2, "k2", "assistant", "npx biome check --write");
    const a = await store.remember({
      content: "Run the linter with npx biome check",
      scope: "p1",
      provenance: { sessionId: "s1", itemFrom: 1, itemTo: 2 },
      ref: "r1",
    });
    await store.remember({ content: "Run the linter with eslint", scope: "p2" });
    const r = await store.recall({ query: "linter", scopes: ["p1"], expand: true });
    expect(r.results.map((x) => x.id)).toEqual([a.id]);
    expect(r.results[0]).toMatchObject({
      ref: "r1",
      scope: "p1",
      provenance: { sessionId: "s1", itemFrom: 1, itemTo: 2 },
    });
    expect(r.results[0]?.evidence?.map((e) => e.seq)).toEqual([1, 2]);
    expect(store.get(a.id!)?.usageCount).toBe(1);
    const all = await store.recall({ query: "linter", scopes: "all", countUsage: false });
    expect(all.results).toHaveLength(2);
    expect(store.get(a.id!)?.usageCount).toBe(1);
  });

  it("merges hints with max and caps hint-only matches", async () => {
    const { store } = makeStore({ config: { hints: { enabled: true } } });
    const a = await store.remember({ content: "The staging database is reset every Sunday night" });
    store.addHints(a.id!, ["when is staging wiped?"]);
    const r = await store.recall({ query: "wiped", scopes: "all" });
    expect(r.results[0]?.id).toBe(a.id);
    expect(r.results[0]?.sources).toContain("hint");
    expect(r.results[0]!.score).toBeLessThanOrEqual(0.75);
  });
});
