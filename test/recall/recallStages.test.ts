import { describe, expect, it } from "vitest";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { recallProfiles } from "../../src/config/recallProfiles.js";
import { hybridRecall } from "../../src/recall/hybridRecall.js";
import type { RecallDeps } from "../../src/recall/recallDeps.js";
import { recallStages } from "../../src/recall/recallStages.js";
import type { RecallStage } from "../../src/recall/stage.js";
import { authorStage } from "../../src/recall/stages/authorStage.js";
import { contextStage } from "../../src/recall/stages/contextStage.js";
import { dampeningStage } from "../../src/recall/stages/dampeningStage.js";
import { graphStage } from "../../src/recall/stages/graphStage.js";
import { headStage } from "../../src/recall/stages/headStage.js";
import { listLengthStage } from "../../src/recall/stages/listLengthStage.js";
import { minScoreStage } from "../../src/recall/stages/minScoreStage.js";
import { rerankStage } from "../../src/recall/stages/rerankStage.js";
import { timeAnswerStage } from "../../src/recall/stages/timeAnswerStage.js";
import { occurredTokens } from "../../src/text/temporalTerms.js";
import { makeStore } from "../memory/storeFixture.js";
import { candidate, recallContext } from "./candidateFixture.js";

const config = defaultRecallConfig({ profile: "conversation" });
const scores = (candidates: { id: number; score: number }[]) => candidates.map((c) => [c.id, c.score]);

describe("recallStages", () => {
  it("runs each profile's stages in order; the agent profile is the default", () => {
    expect(recallStages(config).map((s) => s.name)).toEqual([
      "timeAnswer",
      "context",
      "author",
      "minScore",
      "head",
      "listLength",
      "dampening",
      "recency",
    ]);
    expect(recallStages(config).map((s) => s.name)).toEqual(recallProfiles.conversation.stages);
    expect(defaultRecallConfig().profile).toBe("agent");
    expect(recallStages(defaultRecallConfig()).map((s) => s.name)).toEqual(recallProfiles.agent.stages);
  });

  it("lets a setting switch a stage on or off on top of a profile, in the one order", () => {
    const all = defaultRecallConfig({ profile: "conversation", graph: { enabled: true }, reranker: { enabled: true } });
    expect(recallStages(all).map((s) => s.name)).toEqual([
      "timeAnswer",
      "context",
      "author",
      "minScore",
      "graph",
      "head",
      "listLength",
      "rerank",
      "dampening",
      "recency",
    ]);
    const fewer = defaultRecallConfig({
      profile: "conversation",
      timeAnswer: { penalty: 1 },
      context: { enabled: false },
      author: { enabled: false },
      listLength: { exponent: 0 },
      recency: { enabled: false },
    });
    expect(recallStages(fewer).map((s) => s.name)).toEqual(["minScore", "head", "dampening"]);
    const agentWithAuthor = defaultRecallConfig({ author: { enabled: true } });
    expect(recallStages(agentWithAuthor).map((s) => s.name)).toEqual(["author", ...recallProfiles.agent.stages]);
    expect(agentWithAuthor.author.penalty).toBe(0.6);
  });

  it("takes the profile's leg settings unless the config sets them", () => {
    expect(defaultRecallConfig({ profile: "conversation" }).unfoundWords).toBe(false);
    expect(defaultRecallConfig().unfoundWords).toBe(true);
    expect(defaultRecallConfig({ unfoundWords: false }).unfoundWords).toBe(false);
    expect(defaultRecallConfig().dampening).toMatchObject({ gravityEnabled: false, resolutionEnabled: true });
    expect(defaultRecallConfig({ profile: "conversation" }).dampening.gravityEnabled).toBe(true);
  });

  it("rejects an unknown profile with the names it accepts", () => {
    expect(() => defaultRecallConfig({ profile: "chat" as never })).toThrow(/agent.*conversation/);
  });
});

describe("each stage alone", () => {
  it("timeAnswer lowers memories that name no other time, for 'when' questions only, and weighs admitted ones", () => {
    const day = Date.UTC(2023, 4, 8);
    const mentions = new Map([
      [1, { occurredAt: day, timeTerms: "d20230507 dm0507 m202305 mo05 y2023" }],
      [2, { occurredAt: day, timeTerms: occurredTokens(day).join(" ") }],
      [3, { occurredAt: day, timeTerms: null }],
    ]);
    const deps = { memories: { timeMentions: (ids: number[]) => new Map(ids.map((id) => [id, mentions.get(id)!])) } };
    const stage = timeAnswerStage({ penalty: 0.5 });
    const when = recallContext({ query: "When did Jane move?", deps });
    expect(scores(stage.apply(when, [candidate(1, 0.8), candidate(2, 0.8)]) as never)).toEqual([
      [1, 0.8],
      [2, 0.4],
    ]);
    const admitted = [candidate(3, 0.6)];
    stage.onAdmit?.(when, admitted);
    expect(admitted[0]!.score).toBe(0.3);
    const what = recallContext({ query: "What did Jane move?", deps });
    expect(scores(stage.apply(what, [candidate(2, 0.8)]) as never)).toEqual([[2, 0.8]]);
  });

  it("context admits a session neighbour that matched nothing and lends it part of the anchor's score", () => {
    const session = { sessionId: "a", scope: "s" };
    const deps = {
      memories: { sessionNeighbors: () => [{ id: 2, itemFrom: 6, ...session }] },
    };
    const ctx = recallContext({ deps });
    const out = contextStage({ enabled: true, window: 3, weight: 0.5, decay: 0.8 }).apply(ctx, [
      candidate(1, 0.8, { ref: { sessionId: "a", itemFrom: 5 } }),
    ]) as ReturnType<typeof candidate>[];
    expect(scores(out)).toEqual([
      [1, 0.8],
      [2, 0.4],
    ]);
    expect([...out[1]!.sources]).toEqual(["context"]);
  });

  it("author reads the text of the named author's memories only, and lowers others' and the addressed ones", () => {
    const stage = authorStage({ enabled: true, penalty: 0.5, addressedPenalty: 0.7 });
    const ctx = recallContext({ authorWords: ["jane"] });
    const make = () => [
      candidate(1, 1, { ref: { who: "Jane" }, content: "I moved to Oslo" }),
      candidate(2, 1, { ref: { who: "Jane" }, content: "Your painting is lovely" }),
      candidate(3, 1, { ref: { who: "Ann" }, content: "I moved too" }),
    ];
    expect(stage.needsContent?.(ctx, make()).map((c) => c.id)).toEqual([1, 2]);
    expect(scores(stage.apply(ctx, make()) as never)).toEqual([
      [1, 1],
      [2, 0.7],
      [3, 0.5],
    ]);
    expect(scores(stage.apply(recallContext(), make()) as never)).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
  });

  it("minScore drops what is below the floor", () => {
    const out = minScoreStage(0.1).apply(recallContext(), [candidate(1, 0.05), candidate(2, 0.1), candidate(3, 0.5)]);
    expect(scores(out as never)).toEqual([
      [2, 0.1],
      [3, 0.5],
    ]);
  });

  it("graph reports a graph that cannot be read in the warnings and leaves the scores", () => {
    const broken = {
      graph: {
        entitiesMatching: () => {
          throw new Error("no such table: entities");
        },
      },
    };
    const ctx = recallContext({ query: "what about caching", deps: broken });
    const out = graphStage(config.graph).apply(ctx, [candidate(1, 0.4)]);
    expect(scores(out as never)).toEqual([[1, 0.4]]);
    expect(ctx.warnings).toEqual(["graph boost skipped: no such table: entities"]);
  });

  it("graph boosts the linked memories", () => {
    const graph = { entitiesMatching: () => [7], neighbors: () => [], memoriesMentioning: () => [2] };
    const ctx = recallContext({ query: "what about caching", deps: { graph } });
    const out = graphStage({ ...config.graph, boostWeight: 0.5 }).apply(ctx, [candidate(1, 0.4), candidate(2, 0.4)]);
    expect(scores(out as never)).toEqual([
      [1, 0.4],
      [2, 0.7],
    ]);
    expect(ctx.warnings).toEqual([]);
  });

  it("head sorts and keeps at least 50, 3 k and the reranker's topN", () => {
    const many = () => Array.from({ length: 400 }, (_, i) => candidate(i + 1, (i % 7) / 7));
    const out = headStage({ minimum: 0 }).apply(recallContext({ k: 10 }), many()) as ReturnType<typeof candidate>[];
    expect(out).toHaveLength(50);
    expect(out.every((c, i) => i === 0 || out[i - 1]!.score >= c.score)).toBe(true);
    expect(headStage({ minimum: 0 }).apply(recallContext({ k: 30 }), many())).toHaveLength(90);
    expect(headStage({ minimum: 100 }).apply(recallContext({ k: 10 }), many())).toHaveLength(100);
  });

  it("listLength lowers short memories for list questions only, reading their text only then", () => {
    const stage = listLengthStage({ words: 10, exponent: 1 });
    const list = recallContext({ query: "What activities does Jane do?" });
    const make = () => [
      candidate(1, 0.5, { content: "Fun!" }),
      candidate(2, 0.5, { content: "We went camping by the lake with the kids last weekend" }),
    ];
    expect(stage.needsContent?.(list, make())).toHaveLength(2);
    expect(scores(stage.apply(list, make()) as never)).toEqual([
      [2, 0.5],
      [1, 0.05],
    ]);
    const single = recallContext({ query: "Where does Jane live?" });
    expect(stage.needsContent?.(single, make())).toEqual([]);
    expect(scores(stage.apply(single, make()) as never)).toEqual([
      [1, 0.5],
      [2, 0.5],
    ]);
  });

  it("rerank keeps the order and warns when the provider fails", async () => {
    const reranker = async () => {
      throw new Error("down");
    };
    const ctx = recallContext({ deps: { reranker } });
    const stage = rerankStage({ ...config.reranker, enabled: true, kind: "provider" });
    const out = await stage.apply(ctx, [candidate(1, 0.9), candidate(2, 0.5)]);
    expect(scores(out)).toEqual([
      [1, 0.9],
      [2, 0.5],
    ]);
    expect(ctx.warnings).toEqual(["reranker error; original order kept"]);
  });

  it("dampening lowers semantic-only hits without query overlap and sorts the final order", () => {
    const ctx = recallContext({ query: "deploy failed", deps: { graph: { entityDegrees: () => new Map() } } });
    const stage = dampeningStage(config.dampening);
    const out = stage.apply(ctx, [
      candidate(1, 0.6, { content: "the weather was lovely", vector: 0.6 }),
      candidate(2, 0.5, { content: "deploy failed", keyword: 0.5 }),
    ]);
    expect(scores(out as never)).toEqual([
      [2, 0.5],
      [1, 0.3],
    ]);
  });
});

describe("hybridRecall runs the stage list it is given", () => {
  it("in order, loading the text a stage reads and weighing admitted memories by the stages that ran", async () => {
    // Zero vectors: the vector leg stays out, so only the keyword match is retrieved.
    const embeddings = {
      name: "zero",
      model: "zero",
      dimensions: 8,
      embed: async (texts: string[]) => texts.map(() => new Float32Array(8)),
      available: async () => true,
    };
    const { store } = makeStore({ embeddings });
    const [a, b] = (await store.remember([
      { content: "The deploy uses the staging branch", scope: "p" },
      { content: "Lunch was pizza", scope: "p" },
    ])) as { id: number }[];
    const seen: string[] = [];
    const halve: RecallStage = {
      name: "halve",
      apply: (_ctx, candidates) => {
        seen.push("halve");
        for (const c of candidates) c.score /= 2;
        return candidates;
      },
      onAdmit: (_ctx, admitted) => {
        for (const c of admitted) c.score = 0.01;
      },
    };
    const bringIn: RecallStage = {
      name: "bringIn",
      needsContent: (_ctx, candidates) => candidates,
      apply: (ctx, candidates) => {
        seen.push(`bringIn:${candidates.map((c) => c.content).join("|")}`);
        return [...candidates, ...ctx.admit([b!.id])];
      },
    };
    const deps: RecallDeps = {
      memories: store.storage.memories,
      search: store.storage.search,
      embeddings: store.storage.embeddings,
      vectorIndex: store.storage.vectors,
      graph: store.storage.graph,
      transcripts: store.storage.transcripts,
      reviews: store.storage.reviews,
      provider: store.provider,
      config,
      clock: () => 0,
    };
    const response = await hybridRecall(deps, { query: "deploy staging", scopes: ["p"] }, [halve, bringIn]);
    expect(seen).toEqual(["halve", "bringIn:The deploy uses the staging branch"]);
    expect(response.results.map((r) => r.id)).toEqual([a!.id, b!.id]);
    expect(response.results[1]!.score).toBe(0.01);
    expect(Object.keys(response.timings.stages)).toEqual([
      "embed",
      "keyword",
      "vector",
      "fuse",
      "halve",
      "bringIn",
      "hydrate",
    ]);
  });
});
