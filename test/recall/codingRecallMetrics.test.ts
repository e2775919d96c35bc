import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCodingRecall } from "../../bench/lib/codingRecallData.js";
import { scoreCodingQuery, summarizeCoding } from "../../bench/lib/codingRecallMetrics.js";
import { tempDir } from "../helpers/tempDir.js";

const hit = (ref: string, score = 0.6) => ({ ref, score });

describe("bench:coding metrics", () => {
  it("counts an update as newer-above-older when the stale memory ranks lower or is absent", () => {
    const update = { id: "q", scope: "s", query: "x", gold: ["new"], stale: ["old"], category: "update" as const };
    expect(scoreCodingQuery(update, [hit("old"), hit("new")])).toMatchObject({
      r1: 0,
      r5: 1,
      rr: 0.5,
      newerAboveOlder: false,
    });
    expect(scoreCodingQuery(update, [hit("new"), hit("old")])).toMatchObject({
      r1: 1,
      newerAboveOlder: true,
      newerFirst: true,
    });
    expect(scoreCodingQuery(update, [hit("a"), hit("new")])).toMatchObject({
      newerAboveOlder: true,
      newerFirst: false,
    });
    expect(scoreCodingQuery(update, [hit("old")])).toMatchObject({ newerAboveOlder: false, rr: 0 });
  });

  it("counts a none-query as answered confidently when any result scores 0.5 or more, and leaves it out of overall", () => {
    const none = { id: "n", scope: "s", query: "x", gold: [], category: "none" as const };
    const exact = { id: "e", scope: "s", query: "x", gold: ["m1", "m2"], category: "exact" as const };
    const scores = [
      scoreCodingQuery(none, [hit("m9", 0.2), hit("m8", 0.5)]),
      scoreCodingQuery(none, [hit("m9", 0.49)]),
      scoreCodingQuery(exact, [hit("m3"), hit("m2")]),
    ];
    const summary = summarizeCoding(scores);
    expect(summary.none).toEqual({ n: 2, confident: 0.5, empty: 0 });
    expect(summary.overall).toEqual({ n: 1, r1: 0, r5: 1, mrr: 0.5 });
  });

  it("reports a missing set as absent rather than failing", () => {
    expect(loadCodingRecall(join(tempDir("cairn-coding-"), "nothing-here"))).toBeNull();
  });
});
