import { describe, expect, it } from "vitest";
import { ingestPendingFacts } from "../../../src/pipeline/facts/ingestPending.js";
import type { Stage1Output } from "../../../src/pipeline/phase1/types.js";

/** A stage-1 table in memory: outputs stay pending until marked, oldest first. */
function stage1Table(ids: string[]) {
  const pending = ids.map((sessionId, index) => ({ sessionId, generatedAt: index }) as Stage1Output);
  const marked: string[] = [];
  return {
    marked,
    pendingFacts: (limit: number) => pending.filter((output) => !marked.includes(output.sessionId)).slice(0, limit),
    markFactsIngested: (sessionId: string) => {
      marked.push(sessionId);
    },
  };
}

describe("ingestPendingFacts", () => {
  it("skips past outputs that fail, ingests the rest, and leaves the failed ones pending", async () => {
    const ids = Array.from({ length: 120 }, (_, index) => `s${index}`);
    const stage1 = stage1Table(ids);
    const failing = new Set(["s0", "s1", "s60"]);
    const report = await ingestPendingFacts({
      stage1,
      ingest: async (output) => {
        if (failing.has(output.sessionId)) throw new Error(`decision model down for ${output.sessionId}`);
        return { written: 2 };
      },
      clock: () => 1,
    });
    expect(report).toMatchObject({ outputs: 117, written: 234, failed: 3 });
    expect(report.errors).toEqual([
      { sessionId: "s0", error: "decision model down for s0" },
      { sessionId: "s1", error: "decision model down for s1" },
      { sessionId: "s60", error: "decision model down for s60" },
    ]);
    expect(stage1.marked).toHaveLength(117);
    expect(stage1.pendingFacts(10).map((output) => output.sessionId)).toEqual(["s0", "s1", "s60"]);
  });

  it("reaches good outputs behind more failing ones than one batch holds", async () => {
    const stage1 = stage1Table(Array.from({ length: 70 }, (_, index) => `s${index}`));
    const report = await ingestPendingFacts({
      stage1,
      ingest: async (output) => {
        if (Number(output.sessionId.slice(1)) < 60) throw new Error("unusable answer");
        return { written: 1 };
      },
      clock: () => 1,
    });
    expect(report).toMatchObject({ outputs: 10, written: 10, failed: 60 });
    expect(stage1.marked).toEqual(Array.from({ length: 10 }, (_, index) => `s${60 + index}`));
  });

  it("ingests up to `concurrency` outputs at once, never one session twice, and keeps failures pending", async () => {
    const stage1 = stage1Table(Array.from({ length: 120 }, (_, index) => `s${index}`));
    let inFlight = 0;
    let most = 0;
    const started: string[] = [];
    const report = await ingestPendingFacts({
      stage1,
      concurrency: 8,
      ingest: async (output) => {
        started.push(output.sessionId);
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        if (output.sessionId === "s7" || output.sessionId === "s99") throw new Error("decision model down");
        return { written: 1 };
      },
      clock: () => 1,
    });
    expect(most).toBe(8);
    expect(new Set(started).size).toBe(started.length);
    expect(report).toMatchObject({ outputs: 118, written: 118, failed: 2 });
    expect(stage1.pendingFacts(10).map((output) => output.sessionId)).toEqual(["s7", "s99"]);
  });

  it("with nothing pending reports nothing", async () => {
    const report = await ingestPendingFacts({
      stage1: stage1Table([]),
      ingest: async () => ({ written: 1 }),
      clock: () => 1,
    });
    expect(report).toEqual({ outputs: 0, written: 0, failed: 0, errors: [] });
  });
});
