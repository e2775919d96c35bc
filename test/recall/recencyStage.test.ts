import { describe, expect, it } from "vitest";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { byScoreDesc } from "../../src/recall/candidate.js";
import { subjectOverlap, subjectWords } from "../../src/recall/sameSubject.js";
import { newerAbove, recencyStage, sameSubjectPairs } from "../../src/recall/stages/recencyStage.js";
import { candidate, recallContext } from "./candidateFixture.js";

describe("same subject", () => {
  it("leaves values out: a port, a version or a count is what an update changes", () => {
    expect(subjectWords("The API server listens on port 3000 (Node 20.11, v2)")).toEqual([
      "api",
      "server",
      "listen",
      "port",
      "node",
    ]);
    const old = subjectWords("The API server listens on port 3000");
    const now = subjectWords("The API server listens on port 8080");
    expect(subjectOverlap(old, now)).toBe(1);
  });

  it("is symmetric, so a short memory sharing a few words with a long one falls short", () => {
    expect(subjectOverlap(subjectWords("Install dependencies with npm ci"), subjectWords("Lint before commits"))).toBe(
      0,
    );
    const short = subjectWords("Production DAGs run on Airflow");
    const long = subjectWords(
      "New DAG files take minutes to show up in Airflow; run the reserialize command to load them",
    );
    expect(subjectOverlap(short, long)).toBe(subjectOverlap(long, short));
    expect(subjectOverlap(short, long)).toBeLessThan(0.5);
  });
});

describe("recency stage", () => {
  const day = 86_400_000;
  /** A context whose store knows each memory's time; a word is in one memory of 100 unless `common` lists it. */
  function context(
    times: Record<number, { occurredAt: number | null; createdAt: number }>,
    k = 10,
    common: string[] = [],
    doubts: Map<number, { newer: number; flag: number }> = new Map(),
  ) {
    return recallContext({
      k,
      deps: {
        reviews: { doubtsAbout: (ids: number[]) => new Map([...doubts].filter(([id]) => ids.includes(id))) },
        search: {
          documentFrequencies: (terms: string[]) => new Map(terms.map((t) => [t, common.includes(t) ? 90 : 1])),
          corpusSizeEstimate: () => 100,
        },
        memories: {
          getLive: (ids: number[]) => ids.map((id) => ({ id, ...times[id] })),
        },
      },
    });
  }
  const stage = recencyStage(defaultRecallConfig().recency);

  it("puts the newer of a pair an open review flag joins above the older, whatever their words", async () => {
    const candidates = [
      candidate(1, 0.9, { content: "The database runs on MySQL 8 in docker-compose" }),
      candidate(2, 0.7, { content: "Deploys go through the release branch" }),
      candidate(3, 0.5, { content: "The database is now Postgres 16" }),
    ];
    const times = { 1: { occurredAt: 10 * day, createdAt: 0 }, 3: { occurredAt: 20 * day, createdAt: 0 } };
    const flagged = context(times, 10, [], new Map([[1, { newer: 3, flag: 7 }]]));
    const on = recencyStage({ ...defaultRecallConfig().recency, flagged: true });
    const out = (
      await on.apply(
        flagged,
        candidates.map((c) => ({ ...c, sources: new Set(c.sources) })),
      )
    ).sort(byScoreDesc);
    expect(out.map((c) => [c.id, c.score])).toEqual([
      [3, 0.9],
      [2, 0.7],
      [1, 0.5],
    ]);
    // Without the flag, and with the switch off, their words alone do not make them one subject.
    const plain = (await on.apply(context(times), candidates)).sort(byScoreDesc);
    expect(plain.map((c) => c.id)).toEqual([1, 2, 3]);
    const off = recencyStage({ ...defaultRecallConfig().recency, flagged: false });
    const unflagged = (await off.apply(flagged, candidates)).sort(byScoreDesc);
    expect(unflagged.map((c) => c.id)).toEqual([1, 2, 3]);
  });

  it("puts the newer of two memories on the same subject in the better place, and moves nothing else", async () => {
    const candidates = [
      candidate(1, 0.9, { content: "The API server listens on port 3000" }),
      candidate(2, 0.7, { content: "Deploys go through the release branch" }),
      candidate(3, 0.5, { content: "The API server listens on port 8080" }),
      candidate(4, 0.3, { content: "Commit messages follow conventional commits" }),
    ];
    const ctx = context({
      1: { occurredAt: 10 * day, createdAt: 0 },
      3: { occurredAt: 20 * day, createdAt: 0 },
    });
    const out = (await stage.apply(ctx, candidates)).sort(byScoreDesc);
    expect(out.map((c) => [c.id, c.score])).toEqual([
      [3, 0.9],
      [2, 0.7],
      [1, 0.5],
      [4, 0.3],
    ]);
    expect([...out[0]!.sources]).toEqual(["recency"]);
  });

  it("pairs two statements that open with the same command, whatever the rest of their words", async () => {
    const candidates = [
      candidate(1, 0.9, { content: "`notes sync` copies the notes folder to the backup host with rsync" }),
      candidate(2, 0.7, { content: "`notes new` opens a fresh note in the editor" }),
      candidate(3, 0.5, { content: "`notes sync` commits every change and pushes it to the git remote" }),
    ];
    const ctx = context({
      1: { occurredAt: 10 * day, createdAt: 0 },
      2: { occurredAt: 30 * day, createdAt: 0 },
      3: { occurredAt: 20 * day, createdAt: 0 },
    });
    const out = (await stage.apply(ctx, candidates)).sort(byScoreDesc);
    expect(out.map((c) => [c.id, c.score])).toEqual([
      [3, 0.9],
      [2, 0.7],
      [1, 0.5],
    ]);
  });

  it("never pairs two reports of one command's different errors, though they open with it", async () => {
    const candidates = [
      candidate(1, 0.9, { content: '`npm run build` failed with "error TS2307: Cannot find module ./theme.js"' }),
      candidate(2, 0.5, { content: '`npm run build` failed with "error TS2322: Type string is not assignable"' }),
    ];
    const ctx = context({ 1: { occurredAt: 10 * day, createdAt: 0 }, 2: { occurredAt: 20 * day, createdAt: 0 } });
    const out = (await stage.apply(ctx, candidates)).sort(byScoreDesc);
    expect(out.map((c) => [c.id, c.score])).toEqual([
      [1, 0.9],
      [2, 0.5],
    ]);
  });

  it("falls back to when a memory was stored, and keeps the order when the newer one already leads", async () => {
    const make = () => [
      candidate(1, 0.9, { content: "The API server listens on port 3000" }),
      candidate(3, 0.5, { content: "The API server listens on port 8080" }),
    ];
    const newerStoredFirst = await stage.apply(
      context({ 1: { occurredAt: null, createdAt: 2 }, 3: { occurredAt: null, createdAt: 1 } }),
      make(),
    );
    expect(newerStoredFirst.map((c) => [c.id, c.score])).toEqual([
      [1, 0.9],
      [3, 0.5],
    ]);
    const sameTime = await stage.apply(
      context({ 1: { occurredAt: 5, createdAt: 1 }, 3: { occurredAt: 5, createdAt: 2 } }),
      make(),
    );
    expect(sameTime.map((c) => c.score)).toEqual([0.9, 0.5]);
  });

  it("never pairs memories of different scopes or on different subjects", async () => {
    const candidates = [
      candidate(1, 0.9, { content: "The API server listens on port 3000", ref: { scope: "a" } }),
      candidate(2, 0.6, { content: "The API server listens on port 8080", ref: { scope: "b" } }),
      candidate(3, 0.4, { content: "Lint with biome before committing", ref: { scope: "a" } }),
    ];
    const ctx = context({
      1: { occurredAt: 1, createdAt: 0 },
      2: { occurredAt: 2, createdAt: 0 },
      3: { occurredAt: 3, createdAt: 0 },
    });
    expect((await stage.apply(ctx, candidates)).map((c) => c.score)).toEqual([0.9, 0.6, 0.4]);
  });

  it.each([
    ["In staging the API timeout is 30 seconds", "In production the API timeout is 10 seconds"],
    ["note 15: the export batch size is 500 rows", "note 18: the export batch size is 200 rows"],
  ])("never pairs statements about two named things: %s / %s", async (first, second) => {
    const candidates = [candidate(1, 0.9, { content: first }), candidate(2, 0.5, { content: second })];
    const times = { 1: { occurredAt: 1, createdAt: 0 }, 2: { occurredAt: 2, createdAt: 0 } };
    expect((await stage.apply(context(times), candidates)).map((c) => c.score)).toEqual([0.9, 0.5]);
  });

  it("does not let words most memories use make two memories the same subject", async () => {
    const make = () => [
      candidate(1, 0.9, { content: "Caroline likes the lake trip" }),
      candidate(2, 0.5, { content: "Caroline likes the museum trip" }),
    ];
    const times = { 1: { occurredAt: 1, createdAt: 0 }, 2: { occurredAt: 2, createdAt: 0 } };
    expect((await stage.apply(context(times), make())).map((c) => c.score)).toEqual([0.5, 0.9]);
    const common = ["carolin", "like", "trip"];
    expect((await stage.apply(context(times, 10, common), make())).map((c) => c.score)).toEqual([0.9, 0.5]);
  });

  it("looks only at the window's leading candidates", async () => {
    const narrow = recencyStage({ ...defaultRecallConfig().recency, window: 2 });
    const candidates = [
      candidate(1, 0.9, { content: "The API server listens on port 3000" }),
      candidate(2, 0.8, { content: "Deploys go through the release branch" }),
      candidate(3, 0.5, { content: "The API server listens on port 8080" }),
    ];
    const ctx = context({ 1: { occurredAt: 1, createdAt: 0 }, 3: { occurredAt: 2, createdAt: 0 } }, 2);
    expect((await narrow.apply(ctx, candidates)).map((c) => c.score)).toEqual([0.9, 0.8, 0.5]);
  });

  it("pairs each memory once, with the one it shares most with", () => {
    const head = [candidate(1, 0.9), candidate(2, 0.8), candidate(3, 0.7)];
    const overlaps: Record<string, number> = { "1-2": 0.6, "1-3": 0.9, "2-3": 0.7 };
    const pairs = sameSubjectPairs(head, (a, b) => overlaps[`${a.id}-${b.id}`] ?? 0);
    expect(pairs.map((p) => [p.a.id, p.b.id])).toEqual([[1, 3]]);
  });

  it("exchanges only the two scores of a pair", () => {
    const older = candidate(1, 0.8);
    const newer = candidate(2, 0.4);
    newerAbove(older, newer, (c) => c.id);
    expect([older.score, newer.score]).toEqual([0.4, 0.8]);
  });
});

describe("recency in recall", () => {
  it("ranks the later statement of a changed fact first, where storage order alone puts the earlier one first", async () => {
    const { makeStore } = await import("../memory/storeFixture.js");
    const query = { query: "which port does the API server listen on by default", scopes: ["p"] };
    const ranked = async (recency: boolean) => {
      const { store } = makeStore({ config: { recency: { enabled: recency } } });
      // The earlier statement matches the query better (it also says "default").
      const earlier = await store.remember({
        content: "By default the API server listens on port 3000",
        scope: "p",
        occurredAt: "2025-11-01",
      });
      const later = await store.remember({
        content: "The API server listens on port 8080",
        scope: "p",
        occurredAt: "2026-03-01",
      });
      await store.remember({ content: "Deploys go through the release branch", scope: "p" });
      const ids = (await store.recall(query)).results.map((r) => r.id);
      return ids.slice(0, 2).map((id) => (id === earlier.id ? "earlier" : id === later.id ? "later" : id));
    };
    expect(await ranked(false)).toEqual(["earlier", "later"]);
    expect(await ranked(true)).toEqual(["later", "earlier"]);
  });
});
