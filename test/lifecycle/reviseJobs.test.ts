import { afterEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { REVISE_BATCH } from "../../src/memory/lifecycle/reviseJobFor.js";
import { reviseMemories } from "../../src/memory/lifecycle/reviseMemories.js";
import { REVISE_KIND } from "../../src/store/queue/jobKinds.js";
import { JobQueue } from "../../src/store/queue/jobQueue.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

const opened: Array<{ cairn: Cairn; temp: TempHome }> = [];

function open(): Cairn {
  const temp = tempHome();
  const cairn = new Cairn({ home: temp.home, env: temp.env });
  opened.push({ cairn, temp });
  return cairn;
}

afterEach(() => {
  for (const { cairn, temp } of opened.splice(0)) {
    cairn.close();
    temp.cleanup();
  }
});

/** Updates, a half-sure pair and an unrelated memory, oldest first. */
const BATCH = [
  "The API listens on port 3000 locally",
  "Always use npm in this repo, and run the tests with npm test",
  "use yarn to install packages",
  "The worker pool size is 4 threads",
  "The API listens on port 8080 locally",
  "Deploys go through the staging branch",
  "Don't use yarn to publish packages",
  "We moved from npm to pnpm last week",
  "The worker pool size is 8 threads",
].map((content, i) => ({ content, scope: "app", occurredAt: `2026-03-${String(i + 1).padStart(2, "0")}` }));

/** What revision left: each memory's state and history, and the flags waiting for a person. */
function outcome(cairn: Cairn) {
  const ids = cairn.storage.db.prepare("SELECT id FROM memories ORDER BY id").pluck().all() as number[];
  return {
    memories: ids.map((id) => {
      const memory = cairn.memories.get(id)!;
      const events = cairn.memories.historyOf(id).map((e) => `${e.event}:${e.reason ?? ""}`);
      return { content: memory.content, live: memory.deletedAt === null, by: memory.supersededBy, events };
    }),
    flags: cairn.storage.reviews
      .open({ scopes: ["app"] })
      .map((f) => `${f.memoryId}->${f.relatedId}: ${f.reason}`)
      .sort(),
  };
}

describe("revise jobs are per remembered batch", () => {
  it("a bulk remember queues one job per batch of memories, not one per memory, and runs them all", async () => {
    const cairn = open();
    const count = 2 * REVISE_BATCH + 50;
    const items = Array.from({ length: count }, (_, i) => ({
      content: `The svc-${i} service listens on port ${4000 + i}`,
      scope: "app",
    }));
    const [moved] = await cairn
      .remember([...items, { content: "The svc-7 service listens on port 9999", scope: "app" }])
      .then((outcomes) => outcomes.slice(-1));
    expect(moved?.superseded?.map((s) => s.content)).toEqual(["The svc-7 service listens on port 4007"]);
    const jobs = cairn.storage.jobs.list({ kind: REVISE_KIND });
    expect(jobs.map((job) => job.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const named = jobs.flatMap((job) => (job.payload as { memoryIds: number[] }).memoryIds).sort((a, b) => a - b);
    expect(named).toEqual(Array.from({ length: count + 1 }, (_, i) => i + 1));
  });

  it("a job interrupted mid-batch is run again whole: nothing lost, nothing done twice", async () => {
    const clean = open();
    await clean.remember(BATCH);
    const expected = outcome(clean);
    // The batch did hold updates and a half-sure pair: the comparison below checks real work.
    expect(expected.memories.filter((m) => !m.live).length).toBeGreaterThanOrEqual(2);
    expect(expected.flags.length).toBeGreaterThanOrEqual(1);

    const cairn = open();
    // Written raw, its job queued; then a holder claims and starts the job, revises the first half of
    // its memories (committed) and dies before it can mark the job done; its lease runs out.
    await cairn.memories.remember(BATCH);
    const crashed = new JobQueue(cairn.storage.db);
    const [lease] = crashed.claim({ kind: REVISE_KIND, limit: 5, leaseMs: 1 });
    crashed.start(lease!);
    const ids = (lease!.payload as { memoryIds: number[] }).memoryIds;
    expect(ids).toHaveLength(BATCH.length);
    reviseMemories(cairn.memories, ids.slice(0, 2));
    expect(outcome(cairn)).not.toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 5));

    const report = await cairn.revise();
    expect(report.done).toBe(BATCH.length);
    expect(cairn.storage.jobs.get(REVISE_KIND, String(ids[0]))).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(outcome(cairn)).toEqual(expected);
    // And run again, it changes nothing.
    reviseMemories(cairn.memories, ids);
    expect(outcome(cairn)).toEqual(expected);
  });

  it("a job queued before jobs were per batch (one memory, `memoryId`) is still run", async () => {
    const cairn = open();
    await cairn.memories.remember([{ content: "The worker pool size is 4 threads", scope: "app" }]);
    await cairn.memories.remember([{ content: "The worker pool size is 8 threads", scope: "app" }]);
    cairn.storage.db.prepare("UPDATE jobs SET payload = json_object('memoryId', CAST(key AS INTEGER))").run();
    const report = await cairn.revise();
    expect(report.done).toBe(2);
    expect(report.superseded).toEqual([expect.objectContaining({ oldId: 1, newId: 2 })]);
  });
});
