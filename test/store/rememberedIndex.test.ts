import { describe, expect, it } from "vitest";
import { FACT_PIPELINE_WHO } from "../../src/store/contracts/memories.js";
import { NEWEST_REMEMBERED_SQL } from "../../src/store/repositories/memoryRepository.js";
import { Storage } from "../../src/store/storage.js";
import { withWriteTx } from "../../src/store/tx.js";

// The start hook lists a scope's remembered memories on every session start: it must be answered from
// idx_memories_remembered (migration 012), not by reading every extracted fact of the scope.

function row(storage: Storage, content: string, options: { who: string; at: number; occurredAt?: number }): number {
  return storage.memories.insert({
    content,
    normalizedContent: content.toLowerCase(),
    contentHash: `hash:${content}`,
    type: "fact",
    confidence: 1,
    importance: 0.5,
    scope: "path:/app",
    project: null,
    sessionId: null,
    itemFrom: null,
    itemTo: null,
    occurredAt: options.occurredAt ?? null,
    timeTerms: null,
    conceptTerms: null,
    searchTerms: null,
    ref: null,
    who: options.who,
    why: null,
    embeddingModel: null,
    now: options.at,
  })!;
}

describe("remembered memories of a scope", () => {
  it("are read from their own index, without sorting the scope's rows", () => {
    const storage = Storage.open(":memory:");
    const plan = storage.db
      .prepare(`EXPLAIN QUERY PLAN ${NEWEST_REMEMBERED_SQL}`)
      .all({ scope: "path:/app", limit: 16 }) as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail)).toEqual([expect.stringContaining("USING INDEX idx_memories_remembered")]);
    storage.close();
  });

  it("are the live ones not extracted, newest first by when said, else when stored", () => {
    const storage = Storage.open(":memory:");
    const ids = withWriteTx(storage.db, () => ({
      old: row(storage, "Use tabs", { who: "user", at: 1_000 }),
      extracted: row(storage, "Tests run with vitest", { who: FACT_PIPELINE_WHO, at: 5_000 }),
      said: row(storage, "Deploy on Fridays is fine", { who: "user", at: 2_000, occurredAt: 9_000 }),
      agent: row(storage, "The API port is 8080", { who: "claude-code", at: 3_000 }),
      forgotten: row(storage, "Use spaces", { who: "user", at: 4_000 }),
    }));
    storage.memories.tombstone(ids.forgotten, 6_000);
    expect(storage.memories.newestRemembered("path:/app", 10).map((memory) => memory.id)).toEqual([
      ids.said,
      ids.agent,
      ids.old,
    ]);
    expect(storage.memories.newestRemembered("path:/app", 1).map((memory) => memory.id)).toEqual([ids.said]);
    storage.close();
  });
});
