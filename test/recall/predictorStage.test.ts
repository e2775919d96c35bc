import { afterEach, describe, expect, it } from "vitest";
import { openCairn } from "../../src/cairn.js";
import type { PredictorScorer } from "../../src/recall/predictor.js";
import { removeTempDirs, tempDir } from "../helpers/tempDir.js";

afterEach(removeTempDirs);

const texts = [
  "the release checklist lives in docs/release.md",
  "release builds are signed with the team key",
  "the release branch is cut every second Monday",
];

async function recallWith(scorer: PredictorScorer | undefined, enabled = true) {
  const home = tempDir();
  const cairn = openCairn({
    home,
    env: { CAIRN_HOME: home },
    config: { "recall.predictor.enabled": enabled, "recall.predictor.timeoutMs": 50, "recall.predictor.weight": 1 },
    ...(scorer ? { predictor: scorer } : {}),
  });
  const ids = (await cairn.remember(texts.map((content) => ({ content, scope: "global" })))).map((o) => o.id!);
  const response = await cairn.recall({ query: "release", scope: "global", k: 5 });
  cairn.close();
  return { ids, order: response.results.map((r) => r.id), warnings: response.warnings };
}

describe("the predictor stage (seed 004's scorer interface)", () => {
  it("re-ranks the head by the scorer's scores, given each candidate's features", async () => {
    const seen: number[][] = [];
    let lifted = -1;
    const lastFirst: PredictorScorer = {
      name: "double",
      score: async ({ candidates }) => {
        seen.push(candidates.map((c) => c.features.continuity));
        // Lifts the candidate recall put last: only the scorer can have put it first.
        lifted = candidates.at(-1)!.id;
        return candidates.map((c) => (c.id === lifted ? 1 : 0));
      },
    };
    const baseline = (await recallWith(undefined, false)).order;
    const { order, warnings } = await recallWith(lastFirst);
    expect(lifted).toBe(baseline.at(-1));
    expect(order[0]).toBe(lifted);
    expect(order.slice(1)).toEqual(baseline.slice(0, -1));
    expect(seen[0]?.every((c) => c === -1)).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("keeps the baseline order, with a warning, when the scorer is slow, fails or answers the wrong shape", async () => {
    const baseline = (await recallWith(undefined, false)).order;
    const slow: PredictorScorer = {
      name: "slow",
      score: () => new Promise((r) => setTimeout(() => r([1, 0, 0]), 500)),
    };
    const failing: PredictorScorer = { name: "failing", score: async () => Promise.reject(new Error("sidecar down")) };
    const short: PredictorScorer = { name: "short", score: async () => [1] };
    for (const [scorer, why] of [
      [slow, /took over 50 ms/],
      [failing, /sidecar down/],
      [short, /answered 1 scores for 3/],
    ] as const) {
      const { order, warnings } = await recallWith(scorer);
      expect(order).toEqual(baseline);
      expect(warnings.join("\n")).toMatch(why);
    }
    const none = await recallWith(undefined);
    expect(none.order).toEqual(baseline);
    expect(none.warnings.join("\n")).toMatch(/no scorer was given/);
  });
});
