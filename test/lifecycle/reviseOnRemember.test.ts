import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { reviseMemories } from "../../src/memory/lifecycle/reviseMemories.js";
import { REVISE_KIND } from "../../src/store/queue/jobKinds.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome;
let cairn: Cairn;

beforeEach(() => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
});

afterEach(() => {
  cairn.close();
  temp.cleanup();
});

const ids = (response: { results: { id: number }[] }) => response.results.map((result) => result.id);

describe("remember supersedes the older memories of its subject", () => {
  it("a change statement supersedes the memory presenting the old tool as current, with the reason in history", async () => {
    const [npm] = await cairn.remember({
      content: "Always use npm in this repo, and run the tests with npm test",
      scope: "app",
    });
    const [other] = await cairn.remember({ content: "Deploys go through the staging branch", scope: "app" });
    const [pnpm] = await cairn.remember({ content: "We moved from npm to pnpm last week", scope: "app" });
    expect(pnpm?.superseded).toEqual([
      { id: npm?.id, content: expect.stringContaining("npm"), reason: expect.stringContaining("npm") },
    ]);
    const old = cairn.memories.get(npm!.id!)!;
    expect(old.supersededBy).toBe(pnpm?.id);
    expect(cairn.memories.get(other!.id!)!.deletedAt).toBeNull();
    const event = cairn.memories.historyOf(npm!.id!).find((e) => e.event === "superseded");
    expect(event).toMatchObject({ who: "supersession", reason: expect.stringContaining('"npm" replaced by "pnpm"') });
    const recalled = await cairn.recall({ query: "which package manager, npm or pnpm", scope: "app" });
    expect(ids(recalled)).toContain(pnpm?.id);
    expect(ids(recalled)).not.toContain(npm?.id);
    // The job is done: the cycle step has nothing left.
    expect(cairn.storage.jobs.get(REVISE_KIND, String(pnpm?.id))?.status).toBe("succeeded");
  });

  it("asks a person before replacing again a memory a person restored", async () => {
    const [first] = await cairn.remember({ content: "The API listens on port 3000 locally", scope: "app" });
    const [second] = await cairn.remember({ content: "The API listens on port 8080 locally", scope: "app" });
    expect(second?.superseded?.map((s) => s.id)).toEqual([first?.id]);
    cairn.restoreMemory({ id: first!.id! });
    const [third] = await cairn.remember({ content: "The API listens on port 9090 locally", scope: "app" });
    // The restored one stays live and is flagged; the other, never restored, is replaced as before.
    expect(third?.superseded?.map((s) => s.id)).toEqual([second?.id]);
    expect(third?.flagged).toEqual([
      {
        flag: expect.any(Number),
        with: first?.id,
        reason: expect.stringMatching(/^would supersede: .*; #\d+ was restored by a person$/),
      },
    ]);
    expect(cairn.memories.get(first!.id!)!.deletedAt).toBeNull();
  });

  it("never supersedes across scopes", async () => {
    const [npm] = await cairn.remember({ content: "Always use npm for installs", scope: "one" });
    const [pnpm] = await cairn.remember({ content: "We moved from npm to pnpm", scope: "two" });
    expect(pnpm?.superseded).toBeUndefined();
    expect(cairn.memories.get(npm!.id!)!.deletedAt).toBeNull();
  });

  it("an older memory arriving after a newer one is itself the superseded one", async () => {
    const [now] = await cairn.remember({
      content: "The API listens on port 8080 locally",
      scope: "app",
      occurredAt: "2026-06-10",
    });
    const [late] = await cairn.remember({
      content: "The API listens on port 3000 locally",
      scope: "app",
      occurredAt: "2026-03-01",
    });
    expect(late?.supersededBy).toEqual({ id: now?.id, reason: "value change: 3000 -> 8080" });
    expect(cairn.memories.get(now!.id!)!.deletedAt).toBeNull();
    expect(cairn.memories.get(late!.id!)!.supersededBy).toBe(now?.id);
  });

  it("a half-sure pair is flagged for review, not superseded", async () => {
    const [old] = await cairn.remember({ content: "use npm to install packages", scope: "app" });
    const [newer] = await cairn.remember({ content: "Don't use npm to publish packages", scope: "app" });
    expect(newer?.superseded).toBeUndefined();
    expect(cairn.memories.get(old!.id!)!.deletedAt).toBeNull();
    const flags = cairn.storage.reviews.open({ scopes: ["app"] });
    expect(flags).toEqual([
      expect.objectContaining({
        memoryId: old?.id,
        relatedId: newer?.id,
        detector: "syntactic",
        reason: expect.stringContaining("polarity flip"),
      }),
    ]);
    // Revised again (a replayed job), the pair waiting for a person is not flagged twice.
    expect(reviseMemories(cairn.memories, [newer!.id!], { mode: "review" }).flagged).toEqual([]);
    expect(cairn.storage.reviews.open({ scopes: ["app"] })).toHaveLength(1);
    expect(cairn.storage.reviews.hasOpen(old!.id!, newer!.id!)).toBe(true);
    expect(cairn.storage.reviews.hasOpen(newer!.id!, old!.id!)).toBe(false);
  });

  it("a change said in other words is flagged with the shared words as written, not their stems", async () => {
    const [old] = await cairn.remember({
      content: "The Celery workers use RabbitMQ as their message broker",
      scope: "app",
    });
    const [newer] = await cairn.remember({ content: "The Celery workers' message broker is Redis now", scope: "app" });
    const [flag] = cairn.storage.reviews.open({ scopes: ["app"] });
    expect(flag).toMatchObject({ memoryId: old?.id, relatedId: newer?.id });
    expect(flag?.reason).toMatch(/same subject \(.*\bworkers\b.*\)/);
    expect(flag?.reason).toContain("message");
    expect(flag?.reason).not.toMatch(/\b(worker|messag)\b/);
  });

  it("jobs left pending (a memory written by another path) are revised by the pipeline cycle's step", async () => {
    const [old] = await cairn.memories.remember([{ content: "The worker pool size is 4 threads", scope: "app" }]);
    const [newer] = await cairn.memories.remember([{ content: "The worker pool size is 8 threads", scope: "app" }]);
    expect(cairn.memories.get(old!.id!)!.deletedAt).toBeNull();
    const report = await cairn.revise();
    expect(report.superseded).toEqual([expect.objectContaining({ oldId: old?.id, newId: newer?.id })]);
    expect(report.done).toBe(2);
    expect((await cairn.revise()).done).toBe(0);
  });
});

describe("the pipeline's modes", () => {
  it.each([
    ["pipeline.shadowMode", true],
    ["pipeline.allowUpdateDelete", false],
  ])("with %s %s a sure replacement is flagged for review, never applied", async (key, value) => {
    const shadow = tempHome({ [key]: value });
    const local = new Cairn({ home: shadow.home, env: shadow.env });
    try {
      const [old] = await local.remember({ content: "The API listens on port 3000 locally", scope: "app" });
      const [newer] = await local.remember({ content: "The API listens on port 8080 locally", scope: "app" });
      expect(newer?.superseded).toBeUndefined();
      expect(local.memories.get(old!.id!)!.deletedAt).toBeNull();
      expect(local.storage.reviews.open()).toEqual([
        expect.objectContaining({
          memoryId: old?.id,
          relatedId: newer?.id,
          reason: "would supersede: value change: 3000 -> 8080",
        }),
      ]);
    } finally {
      local.close();
      shadow.cleanup();
    }
  });

  it("with pipeline.mutationsFrozen the revise jobs wait", async () => {
    const frozen = tempHome();
    // Written raw before the brake was pulled: its revise job is still pending.
    const before = new Cairn({ home: frozen.home, env: frozen.env });
    await before.memories.remember([{ content: "The API listens on port 3000 locally", scope: "app" }]);
    before.close();
    const local = new Cairn({ home: frozen.home, env: frozen.env, config: { "pipeline.mutationsFrozen": true } });
    try {
      expect((await local.revise()).done).toBe(0);
      expect(local.storage.jobs.get(REVISE_KIND, "1")?.status).toBe("pending");
    } finally {
      local.close();
      frozen.cleanup();
    }
  });
});
