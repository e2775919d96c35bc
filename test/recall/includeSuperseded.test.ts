import { describe, expect, it } from "vitest";
import { supersededChains } from "../../src/recall/supersededChains.js";
import type { MemoryRecord } from "../../src/store/types/memoryRecord.js";
import { makeStore } from "../memory/storeFixture.js";

describe("superseded memories in recall", () => {
  it("are left out by default: a tombstone that names its successor is out of every index", async () => {
    const { store, advance } = makeStore();
    const old = await store.remember({ content: "The API server listens on port 3000", scope: "p" });
    advance(1000);
    const current = await store.remember({ content: "The API server listens on port 8080", scope: "p" });
    expect(store.supersede(old.id!, current.id!, { who: "test" })).toBe(true);
    const response = await store.recall({ query: "API server listens port 3000", scopes: ["p"], k: 10 });
    expect(response.results.map((r) => r.id)).toEqual([current.id]);
    expect(response.results[0]!.superseded).toBeUndefined();
  });

  it("follow their successor transitively with includeSuperseded, outside the ranking and k", async () => {
    const { store, advance } = makeStore();
    const first = await store.remember({ content: "Install dependencies with npm ci", scope: "p" });
    advance(86_400_000);
    const second = await store.remember({ content: "Install dependencies with yarn install", scope: "p" });
    store.supersede(first.id!, second.id!);
    const supersededAt = advance(86_400_000);
    const third = await store.remember({ content: "Install dependencies with pnpm install", scope: "p" });
    store.supersede(second.id!, third.id!);
    await store.remember({ content: "Dependencies are audited weekly with pnpm audit", scope: "p" });

    const response = await store.recall({
      query: "install dependencies",
      scopes: ["p"],
      k: 1,
      includeSuperseded: true,
    });
    expect(response.results.map((r) => r.id)).toEqual([third.id]);
    expect(response.results[0]!.superseded).toEqual([
      {
        id: second.id,
        content: "Install dependencies with yarn install",
        type: "fact",
        supersededAt,
        supersededBy: third.id,
      },
      expect.objectContaining({ id: first.id, content: "Install dependencies with npm ci", supersededBy: second.id }),
    ]);
    const two = await store.recall({ query: "pnpm dependencies", scopes: ["p"], k: 2, includeSuperseded: true });
    expect(two.results).toHaveLength(2);
    expect(two.results.map((r) => r.id)).not.toContain(second.id);
    expect(two.results.map((r) => r.id)).not.toContain(first.id);
  });

  it("shows only replaced memories of the wanted scopes", async () => {
    const { store } = makeStore();
    const elsewhere = await store.remember({ content: "Deploys go through the staging branch", scope: "other" });
    const current = await store.remember({ content: "Deploys go through the release branch", scope: "p" });
    store.supersede(elsewhere.id!, current.id!);
    const response = await store.recall({ query: "deploys branch", scopes: ["p"], includeSuperseded: true });
    expect(response.results[0]!.id).toBe(current.id);
    expect(response.results[0]!.superseded).toBeUndefined();
  });
});

describe("supersededChains", () => {
  const record = (id: number, supersededBy: number, supersededAt: number): MemoryRecord =>
    ({ id, content: `m${id}`, type: "fact", scope: "p", supersededBy, supersededAt, updatedAt: 0 }) as MemoryRecord;

  it("walks each chain once, newest replacement first, even through a cycle", () => {
    // 3 replaced 2 and 1; 2 replaced 4; 4 names 3 again (restored, then superseded once more).
    const rows = [record(2, 3, 20), record(1, 3, 10), record(4, 2, 5), record(3, 4, 1)];
    const repo = { supersededBy: (ids: number[]) => rows.filter((r) => ids.includes(r.supersededBy!)) };
    const chains = supersededChains(repo, { ids: [3, 9], scopes: "all" });
    expect(chains.get(3)?.map((m) => [m.id, m.supersededBy])).toEqual([
      [2, 3],
      [1, 3],
      [4, 2],
    ]);
    expect(chains.has(9)).toBe(false);
  });
});
