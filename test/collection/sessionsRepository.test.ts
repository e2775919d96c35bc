import { beforeEach, describe, expect, it } from "vitest";
import type { SessionItem } from "../../src/sources/types.js";
import { openDatabase } from "../../src/store/connection.js";
import { ItemsRepository } from "../../src/store/repositories/itemsRepository.js";
import { SessionsRepository } from "../../src/store/repositories/sessionsRepository.js";

function item(n: number): SessionItem {
  return { key: `k${n}`, role: "user", text: `message ${n}`, origin: { file: "f", line: n } };
}

describe("SessionsRepository (collection loop, seed 001)", () => {
  let sessions: SessionsRepository;
  let items: ItemsRepository;

  beforeEach(() => {
    const { db } = openDatabase(":memory:");
    sessions = new SessionsRepository(db);
    items = new ItemsRepository(db);
    for (const id of ["a", "b", "c"]) {
      sessions.upsert({
        info: { id, agent: "codex", kind: "interactive", cwd: "/w", startedAt: 1, updatedAt: 2 },
        projectKey: "path:/w",
        sourcePath: null,
        now: 3,
      });
    }
  });

  it("invalidate sets the mark, is idempotent and only moves forward", () => {
    sessions.invalidate("a", 10);
    sessions.invalidate("a", 10);
    expect(sessions.get("a")?.invalidatedAt).toBe(10);
    sessions.invalidate("a", 5);
    expect(sessions.get("a")?.invalidatedAt).toBe(10);
    sessions.invalidate("a", 12);
    expect(sessions.get("a")?.invalidatedAt).toBe(12);
  });

  it("findInvalidated returns only pending sessions, oldest mark first, within the limit", () => {
    sessions.invalidate("b", 30);
    sessions.invalidate("c", 20);
    expect(sessions.findInvalidated(10).map((s) => s.id)).toEqual(["c", "b"]);
    expect(sessions.findInvalidated(1).map((s) => s.id)).toEqual(["c"]);
  });

  it("markProcessed is a compare-and-swap on invalidated_at", () => {
    sessions.invalidate("a", 10);
    expect(sessions.markProcessed("a", 10, 10)).toBe(true);
    expect(sessions.get("a")).toMatchObject({ invalidatedAt: null, processedUntil: 10 });
    sessions.invalidate("a", 15);
    sessions.invalidate("a", 18); // new items arrived while a worker processed up to 15
    expect(sessions.markProcessed("a", 15, 15)).toBe(false);
    expect(sessions.get("a")).toMatchObject({ invalidatedAt: 18, processedUntil: 10 });
  });

  it("maxId and progress follow the stored items", () => {
    expect(items.maxId("a")).toBeNull();
    expect(items.progress("a", null)).toEqual({ maxId: null, since: 0 });
    items.upsert("a", [item(1), item(2), item(3)], 0);
    const max = items.maxId("a")!;
    expect(items.progress("a", null)).toEqual({ maxId: max, since: 3 });
    expect(items.progress("a", max - 1)).toEqual({ maxId: max, since: 1 });
    expect(items.progress("a", max)).toEqual({ maxId: max, since: 0 });
  });

  it("insertNew stores every item once and in order, however many there are", () => {
    for (const [index, count] of [1, 2, 7, 26, 31, 32, 33, 70].entries()) {
      const id = `n${index}`;
      sessions.upsert({
        info: { id, agent: "codex", kind: "interactive", cwd: "/w", startedAt: 1, updatedAt: 2 },
        projectKey: "path:/w",
        sourcePath: null,
        now: 3,
      });
      items.insertNew(
        id,
        Array.from({ length: count }, (_, n) => item(n + 1)),
      );
      const stored = items.list(id);
      expect(stored.map((row) => [row.seq, row.key])).toEqual(
        Array.from({ length: count }, (_, n) => [n + 1, `k${n + 1}`]),
      );
    }
  });

  it("re-writing an unchanged item keeps its id; a changed one is updated in place", () => {
    items.upsert("a", [item(1), item(2)], 0);
    const before = items.list("a");
    expect(items.upsert("a", [item(1), item(2)], 0).written).toBe(0);
    expect(items.upsert("a", [item(1), { ...item(2), text: "edited" }], 0).written).toBe(1);
    const after = items.list("a");
    expect(after.map((i) => i.id)).toEqual(before.map((i) => i.id));
    expect(after[1]?.text).toBe("edited");
  });

  it("invalidateIdle marks idle sessions with unprocessed items only", () => {
    items.upsert("a", [item(1)], 0);
    items.upsert("b", [item(1)], 0);
    sessions.markProcessed("b", items.maxId("b")!, 0); // not invalidated: CAS fails, nothing changes
    sessions.invalidate("b", items.maxId("b")!);
    sessions.markProcessed("b", items.maxId("b")!, items.maxId("b")!);
    expect(sessions.invalidateIdle(100)).toBe(1);
    expect(sessions.get("a")?.invalidatedAt).toBe(items.maxId("a"));
    expect(sessions.get("b")?.invalidatedAt).toBeNull();
    expect(sessions.get("c")?.invalidatedAt).toBeNull();
    expect(sessions.invalidateIdle(1)).toBe(0);
  });
});
