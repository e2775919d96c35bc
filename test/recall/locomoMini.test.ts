import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ingestLocomo } from "../../bench/lib/ingestLocomo.js";
import { loadLocomo, splitEvidence } from "../../bench/lib/locomoData.js";
import { scoreQuestion } from "../../bench/lib/retrievalMetrics.js";
import { tempDir } from "../helpers/tempDir.js";
import { makeStore } from "../memory/storeFixture.js";

const path = new URL("../fixtures/locomo-mini/mini.json", import.meta.url).pathname;

describe("LoCoMo-shaped fixture", () => {
  it("loads categories 1-4 only and ranks the gold turns exactly", async () => {
    const [conversation] = loadLocomo(path);
    expect(conversation?.questions.map((q) => q.category)).toEqual([4, 4, 2, 1]);
    const { store } = makeStore({ config: { profile: "conversation" } });
    await ingestLocomo(store, conversation!, { speaker: true, caption: true, date: true });
    const ranked: Record<string, (string | null)[]> = {};
    for (const q of conversation!.questions) {
      const r = await store.recall({ query: q.question, k: 3, scopes: [conversation!.sampleId], countUsage: false });
      ranked[q.question] = r.results.map((x) => x.ref);
      for (const x of r.results) expect(x.score).toBeLessThanOrEqual(1);
    }
    expect(ranked).toEqual(EXPECTED);
    const scores = conversation!.questions.map((q) =>
      scoreQuestion((ranked[q.question] ?? []).map(String), q.evidence),
    );
    expect(scores.every((s) => s.reciprocalRank === 1)).toBe(true);
  });

  it("keeps conversations apart by scope", async () => {
    const [conversation] = loadLocomo(path);
    const { store } = makeStore({ config: { profile: "conversation" } });
    await ingestLocomo(store, conversation!, { speaker: true, caption: false, date: false });
    const r = await store.recall({ query: "sailboat rudder", scopes: ["other-conversation"] });
    expect(r.results).toEqual([]);
  });
});

/**
 * Gold first everywhere. "rudder" (D1:3) shares no word with "repair": it is found because the turn
 * two items before it matched (conversation context). Bo's question D1:2 ("What was broken on it?")
 * is a close third: the turn before it, D1:1, is indexed with it (contextual indexing) and lends it
 * score, which nearly outweighs the author prior. Other speakers' turns follow the named speaker's.
 * The turns carry their session date as `occurredAt`; its calendar tokens lengthen every FTS row a
 * little (FTS5's BM25 normalizes by the whole row), which is what swapped those near ties. Ada's
 * D2:4 ("Keep going, Bo! What glaze did you use?") speaks only to Bo, so the sailing question, which
 * names Ada, no longer ranks it second.
 */
const EXPECTED: Record<string, string[]> = {
  "What did Ada repair?": ["D1:1", "D1:3", "D1:2"],
  "What does Bo bake for the market?": ["D1:4", "D1:6", "D1:5"],
  "When did Ada sail across the lake?": ["D2:2", "D2:1", "D2:3"],
  "What glaze did Bo use on the bowl?": ["D2:5", "D2:3", "D2:4"],
};

describe("LoCoMo evidence ids", () => {
  it("splits joined ids, repairs the misspelt D:n:m form and drops what names no turn", () => {
    expect(splitEvidence(["D8:6; D9:17", "D:11:26", "D", "D10:19"])).toEqual(["D8:6", "D9:17", "D11:26", "D10:19"]);
  });

  it("reports the evidence pieces it dropped, for the scored categories only", () => {
    const file = join(tempDir("cairn-locomo-"), "data.json");
    const qa = [
      { question: "Where?", evidence: ["D1:1", "D"], category: 4 },
      { question: "Trap?", evidence: ["X"], category: 5 },
    ];
    writeFileSync(file, JSON.stringify([{ sample_id: "s", conversation: { session_1: [] }, qa }]));
    const [conversation] = loadLocomo(file);
    expect(conversation!.unreadEvidence).toEqual(["D"]);
    expect(conversation!.questions.map((q) => q.evidence)).toEqual([["D1:1"]]);
  });
});
