import { beforeEach, describe, expect, it } from "vitest";
import type { Stage1Output } from "../../src/pipeline/phase1/types.js";
import { selectionDiff } from "../../src/pipeline/phase2/selectionDiff.js";
import type { Storage } from "../../src/store/storage.js";
import { DAY_MS } from "../../src/util/clock.js";
import { addSession, memoryStorage } from "../helpers/store.js";

function output(sessionId: string, fields: Partial<Stage1Output> = {}): Stage1Output {
  return {
    sessionId,
    projectKey: "path:/p",
    cwd: "/p",
    agent: "codex",
    sourceUpdatedAt: 10,
    itemFrom: 1,
    itemTo: 2,
    rawMemory: "raw",
    rolloutSummary: "summary",
    rolloutSlug: null,
    facts: [],
    entities: [],
    generator: "offline",
    generatedAt: 10,
    usageCount: 0,
    lastUsage: null,
    selectedForPhase2: false,
    selectedForPhase2SourceUpdatedAt: null,
    ...fields,
  };
}

describe("selectionDiff", () => {
  it("labels new and refreshed inputs added, same snapshots retained, dropped ones removed", () => {
    const diff = selectionDiff(
      [output("new"), output("same", { sourceUpdatedAt: 5 }), output("refreshed", { sourceUpdatedAt: 9 })],
      [
        { sessionId: "same", sourceUpdatedAt: 5 },
        { sessionId: "refreshed", sourceUpdatedAt: 8 },
        { sessionId: "dropped", sourceUpdatedAt: 3 },
        { sessionId: "deleted", sourceUpdatedAt: 3 },
      ],
      [output("same"), output("refreshed"), output("dropped")],
    );
    expect(diff.added.map((o) => o.sessionId)).toEqual(["new", "refreshed"]);
    expect(diff.retained.map((o) => o.sessionId)).toEqual(["same"]);
    expect(diff.removed.map((o) => o.sessionId)).toEqual(["dropped"]);
  });
});

describe("Stage1Repository phase-2 selection", () => {
  let storage: Storage;
  const now = 100 * DAY_MS;
  const clock = () => now;

  beforeEach(() => {
    storage = memoryStorage(clock);
    for (const id of ["a", "b", "c", "d"]) addSession(storage, clock, { id, updatedAt: now - DAY_MS });
  });

  const write = (id: string, generatedAt: number) =>
    storage.stage1.upsert({ ...output(id, { generatedAt, sourceUpdatedAt: generatedAt }), projectKey: "path:/p" });
  const select = (limit = 10) =>
    storage.stage1.selectForPhase2({ projectKey: "path:/p", since: now - 30 * DAY_MS, limit }).map((o) => o.sessionId);

  it("keeps never-used outputs by their generation time and drops those unused past the window", () => {
    write("a", now - 29 * DAY_MS);
    write("b", now - 31 * DAY_MS);
    write("c", now - 40 * DAY_MS);
    storage.stage1.recordUsage(["c"], now - DAY_MS); // old output, but used recently
    write("d", now - 2 * DAY_MS);
    storage.db.prepare("UPDATE stage1_outputs SET last_usage = ? WHERE session_id = 'd'").run(now - 31 * DAY_MS);
    expect(select()).toEqual(["c", "a"]);
  });

  it("ranks by usage count, then by the most recent use or generation, and keeps the top N", () => {
    write("a", now - 5 * DAY_MS);
    write("b", now - 1 * DAY_MS);
    write("c", now - 3 * DAY_MS);
    storage.stage1.recordUsage(["a"], now - 4 * DAY_MS);
    storage.stage1.recordUsage(["a"], now - 4 * DAY_MS);
    expect(select()).toEqual(["a", "b", "c"]);
    expect(select(2)).toEqual(["a", "b"]);
  });

  it("an upsert keeps the previous selection baseline and usage untouched", () => {
    write("a", now - DAY_MS);
    storage.stage1.recordUsage(["a"], now);
    storage.stage1.markSelected("path:/p", [{ sessionId: "a", sourceUpdatedAt: now - DAY_MS }], {
      projectKey: "path:/p",
    });
    write("a", now);
    expect(storage.stage1.get("a")).toMatchObject({
      usageCount: 1,
      selectedForPhase2: true,
      selectedForPhase2SourceUpdatedAt: now - DAY_MS,
      sourceUpdatedAt: now,
    });
  });
});
