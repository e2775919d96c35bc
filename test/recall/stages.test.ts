import { describe, expect, it } from "vitest";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { applyAuthorPrior } from "../../src/recall/authorPrior.js";
import { linkNeighbors, spreadContext } from "../../src/recall/contextSpread.js";
import { applyDampening } from "../../src/recall/dampening.js";
import { createEmbeddingReranker } from "../../src/recall/embeddingReranker.js";
import { grammaticalPerson } from "../../src/recall/grammaticalPerson.js";
import { graphBoostIds } from "../../src/recall/graphBoost.js";
import { passThroughReranker, type RerankCandidate, rerankWithTimeout } from "../../src/recall/rerank.js";
import { stem } from "../../src/text/stem.js";
import { makeStore } from "../memory/storeFixture.js";
import { candidate } from "./candidateFixture.js";

const dampening = (overrides: Record<string, boolean>) =>
  defaultRecallConfig({
    dampening: { gravityEnabled: false, hubEnabled: false, resolutionEnabled: false, ...overrides },
  }).dampening;

describe("dampening stages", () => {
  it("gravity halves semantic-only hits without query overlap, and only when on", () => {
    const make = () => [
      candidate(1, 0.6, { content: "the weather was lovely", vector: 0.6 }),
      candidate(2, 0.6, { content: "deploy failed on friday", vector: 0.6 }),
      candidate(3, 0.6, { content: "nothing shared", keyword: 0.6 }),
    ];
    const on = make();
    applyDampening({
      candidates: on,
      queryStems: [stem("deploy")],
      degrees: () => new Map(),
      config: dampening({ gravityEnabled: true }),
    });
    expect(on.map((c) => c.score)).toEqual([0.3, 0.6, 0.6]);
    const off = make();
    applyDampening({ candidates: off, queryStems: [stem("deploy")], degrees: () => new Map(), config: dampening({}) });
    expect(off.map((c) => c.score)).toEqual([0.6, 0.6, 0.6]);
  });

  it("hub penalizes memories whose entities are all hubs, and only when on", () => {
    const degrees = new Map([
      [1, [100, 100]],
      [2, [100, 2]],
      [3, [1]],
    ]);
    const make = () => [candidate(1, 0.5), candidate(2, 0.5), candidate(3, 0.5)];
    const on = make();
    applyDampening({ candidates: on, queryStems: [], degrees: () => degrees, config: dampening({ hubEnabled: true }) });
    expect(on.map((c) => c.score)).toEqual([0.35, 0.5, 0.5]);
    const off = make();
    applyDampening({ candidates: off, queryStems: [], degrees: () => degrees, config: dampening({}) });
    expect(off.map((c) => c.score)).toEqual([0.5, 0.5, 0.5]);
  });

  it("resolution boosts decisions (x1.2) and dated memories (x1.1), never short ones, only when on", () => {
    const long = "a sentence that is comfortably longer than fifty characters";
    const make = () => [
      candidate(1, 0.5, { content: long, ref: { type: "decision" } }),
      candidate(2, 0.5, { content: `${long} on 2024-05-01` }),
      candidate(3, 0.5, { content: "decided: short", ref: { type: "decision" } }),
      candidate(4, 0.9, { content: long, ref: { type: "constraint" } }),
    ];
    const on = make();
    applyDampening({
      candidates: on,
      queryStems: [],
      degrees: () => new Map(),
      config: dampening({ resolutionEnabled: true }),
    });
    expect(on.map((c) => Number(c.score.toFixed(4)))).toEqual([0.6, 0.55, 0.5, 1]);
    const off = make();
    applyDampening({ candidates: off, queryStems: [], degrees: () => new Map(), config: dampening({}) });
    expect(off.map((c) => c.score)).toEqual([0.5, 0.5, 0.5, 0.9]);
  });
});

describe("context and author stages", () => {
  it("lends neighbours a share of the gap, decaying with distance", () => {
    const anchor = candidate(1, 0.8, { ref: { sessionId: "D1", itemFrom: 5 } });
    const near = candidate(2, 0.2, { ref: { sessionId: "D1", itemFrom: 6 } });
    const far = candidate(3, 0, { ref: { sessionId: "D1", itemFrom: 7 } });
    const map = new Map([anchor, near, far].map((c) => [c.id, c]));
    const links = linkNeighbors(
      [anchor],
      [
        { id: 2, sessionId: "D1", itemFrom: 6, scope: "s" },
        { id: 3, sessionId: "D1", itemFrom: 7, scope: "s" },
      ],
      2,
    );
    spreadContext(map, links, { weight: 0.5, decay: 0.5 });
    expect(near.score).toBeCloseTo(0.2 + 0.5 * 0.6);
    expect(far.score).toBeCloseTo(0.5 * 0.4);
    expect(anchor.score).toBe(0.8);
  });

  it("penalizes other authors only when the query names an author", () => {
    const make = () => [
      candidate(1, 0.5, { ref: { who: "Jane Doe" } }),
      candidate(2, 0.5, { ref: { who: "Ann" } }),
      candidate(3, 0.5),
    ];
    const named = make();
    applyAuthorPrior(named, ["jane"], { penalty: 0.3, addressedPenalty: 1 });
    expect(named.map((c) => c.score)).toEqual([0.5, 0.15, 0.5]);
    const none = make();
    applyAuthorPrior(none, [], { penalty: 0.3, addressedPenalty: 1 });
    expect(none.map((c) => c.score)).toEqual([0.5, 0.5, 0.5]);
    const both = make();
    applyAuthorPrior(both, ["jane", "ann"], { penalty: 0.3, addressedPenalty: 1 });
    expect(both.map((c) => c.score)).toEqual([0.5, 0.5, 0.5]);
  });

  it("lowers the named author's memories that speak only to someone else", () => {
    const jane = (id: number, content: string | undefined) => candidate(id, 0.5, { ref: { who: "Jane" }, content });
    const list = [
      jane(1, "I finally finished the fence, you should see it"),
      jane(2, "Wow, your fence looks great!"),
      jane(3, "The fence is done."),
      jane(4, undefined),
      candidate(5, 0.5, { ref: { who: "Ann" }, content: "Your fence looks great, Jane" }),
    ];
    applyAuthorPrior(list, ["jane"], { penalty: 0.6, addressedPenalty: 0.7 });
    // First person anywhere: about the speaker. Second person only: about the one addressed. Text not
    // loaded: left alone. Someone else's memory: the author penalty, whatever its grammar.
    expect(list.map((c) => c.score)).toEqual([0.5, 0.35, 0.5, 0.5, 0.3]);
  });

  it("tells first-person, addressed and impersonal texts apart", () => {
    expect(grammaticalPerson("I'm off to go swimming with the kids")).toBe("speaker");
    expect(grammaticalPerson("We've been camping; you'd love it")).toBe("speaker");
    expect(grammaticalPerson("You've made so much progress! Your art is amazing.")).toBe("addressee");
    expect(grammaticalPerson("Y'all looked great")).toBe("addressee");
    expect(grammaticalPerson("The build uses pnpm.")).toBe("neither");
    // Words that merely contain a pronoun are not pronouns.
    expect(grammaticalPerson("Yourtown hosts myriad events")).toBe("neither");
  });
});

describe("rerankers", () => {
  const list: RerankCandidate[] = [1, 2, 3].map((id) => ({
    id,
    content: `c${id}`,
    score: 1 - id / 10,
    contentHash: `h${id}`,
  }));

  it("keeps the original order when the provider times out, throws or changes the set", async () => {
    const slow = () => new Promise<RerankCandidate[]>((resolve) => setTimeout(() => resolve([...list].reverse()), 500));
    expect(await rerankWithTimeout({ query: "q", candidates: list, provider: slow, topN: 3, timeoutMs: 20 })).toEqual({
      candidates: list,
      fallback: "timeout",
    });
    const broken = async () => Promise.reject(new Error("boom"));
    expect(
      (await rerankWithTimeout({ query: "q", candidates: list, provider: broken, topN: 3, timeoutMs: 100 })).fallback,
    ).toBe("error");
    const lossy = async (_q: string, c: RerankCandidate[]) => c.slice(1);
    expect(
      (await rerankWithTimeout({ query: "q", candidates: list, provider: lossy, topN: 3, timeoutMs: 100 })).fallback,
    ).toBe("invalid");
  });

  it("reranks only the head and passes through unchanged", async () => {
    const reverse = async (_q: string, c: RerankCandidate[]) => [...c].reverse();
    const out = await rerankWithTimeout({ query: "q", candidates: list, provider: reverse, topN: 2, timeoutMs: 100 });
    expect(out.candidates.map((c) => c.id)).toEqual([2, 1, 3]);
    expect(
      (
        await rerankWithTimeout({
          query: "q",
          candidates: list,
          provider: passThroughReranker,
          topN: 3,
          timeoutMs: 100,
        })
      ).candidates,
    ).toEqual(list);
  });

  it("blends 0.7 * score + 0.3 * cosine with stored vectors", async () => {
    const q = new Float32Array([1, 0]);
    const vectors = new Map([
      ["h1", new Float32Array([0, 1])],
      ["h3", new Float32Array([1, 0])],
    ]);
    const rerank = createEmbeddingReranker({ queryVector: q, vectors: () => vectors, originalWeight: 0.7 });
    const out = await rerank("q", list);
    expect(out.map((c) => [c.id, Number(c.score.toFixed(3))])).toEqual(
      [[3, 0.79], [2, 0.8 * 1].map((x, i) => (i === 0 ? x : 0.8)) as [number, number], [1, 0.63]].sort(
        (a, b) => (b[1] ?? 0) - (a[1] ?? 0),
      ),
    );
  });
});

describe("graph boost", () => {
  it("returns linked memories, and stops at the deadline with what it has", async () => {
    const { store } = makeStore();
    const a = await store.remember({ content: "the manifests live in the Helm chart" });
    await store.remember({ content: "nothing to see here" });
    const full = graphBoostIds(store.storage.graph, {
      tokens: ["helm"],
      scopes: "all",
      deadlineMs: Number.POSITIVE_INFINITY,
      maxEntities: 20,
      maxNeighbors: 50,
      maxMemories: 200,
      now: () => 0,
    });
    expect([...full.ids]).toEqual([a.id]);
    expect(full.timedOut).toBe(false);
    let t = 0;
    const late = graphBoostIds(store.storage.graph, {
      tokens: ["helm"],
      scopes: "all",
      deadlineMs: 5,
      maxEntities: 20,
      maxNeighbors: 50,
      maxMemories: 200,
      now: () => (t += 10),
    });
    expect(late).toEqual({ ids: new Set(), timedOut: true });
  });
});
