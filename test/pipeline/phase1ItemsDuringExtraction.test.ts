import { beforeEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import { runPhase1 } from "../../src/pipeline/phase1/runPhase1.js";
import type { Storage } from "../../src/store/storage.js";
import { DAY_MS } from "../../src/util/clock.js";
import { FakeLlm } from "../helpers/fakeLlm.js";
import { addSession, memoryStorage } from "../helpers/store.js";

const TURNS = [
  { role: "user" as const, text: "Please fix the failing date parser tests." },
  { role: "assistant" as const, text: "Looking at the parser." },
  { role: "user" as const, text: "Use pnpm instead of npm for installs." },
  { role: "assistant" as const, text: "Switched the parser to Temporal." },
  { role: "user" as const, text: "Thanks, that works." },
  { role: "assistant" as const, text: "All tests pass now." },
];
const LATER = [
  { role: "user" as const, text: "One more thing: the release branch is called trunk-stable." },
  { role: "assistant" as const, text: "Noted, releases are cut from trunk-stable." },
];

const answer = (summary: string) => ({
  json: { rollout_summary: summary, rollout_slug: "parser", raw_memory: `- ${summary}`, facts: [], entities: [] },
});

// Seed 001's compare-and-swap: phase 1 records a session as processed only up to the items it read,
// and only if nobody marked the session again while the model ran. Items the collector stored during
// extraction must not be lost: the session stays pending and the next run extracts them.
describe("items that arrive while phase 1 extracts a session", () => {
  let now: number;
  let storage: Storage;
  const clock = () => now;
  const config = validateConfig({});

  beforeEach(() => {
    now = 100 * DAY_MS;
    storage = memoryStorage(clock);
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS, items: TURNS });
  });

  it("leave the session pending, and the next run extracts them", async () => {
    const firstTo = storage.items.maxId("s");
    const llm = new FakeLlm({
      answers: [
        () => {
          // The agent wrote two more turns and the collector stored them mid-extraction.
          addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS + 1, items: [...TURNS, ...LATER] });
          return answer("first six turns");
        },
      ],
    });
    const first = await runPhase1({ storage, config, clock, llm });
    expect(first.jobs.map((job) => job.outcome)).toEqual(["succeeded"]);
    const lastId = storage.items.maxId("s");
    expect(lastId).toBeGreaterThan(firstTo ?? 0);
    // The output covers what the model saw; the session is still marked, up to the new items, and
    // records no progress (the swap failed as a whole).
    expect(storage.stage1.get("s")?.itemTo).toBe(firstTo);
    expect(storage.sessions.get("s")).toMatchObject({ invalidatedAt: lastId, processedUntil: null });

    llm.enqueue(answer("all eight turns"));
    const second = await runPhase1({ storage, config, clock, llm });
    expect(second.jobs.map((job) => job.outcome)).toEqual(["succeeded"]);
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[1]?.prompt).toContain("trunk-stable");
    expect(storage.stage1.get("s")).toMatchObject({ itemTo: lastId, rolloutSummary: "all eight turns" });
    expect(storage.sessions.get("s")).toMatchObject({ invalidatedAt: null, processedUntil: lastId });
  });

  it("cover items stored after the mark without a new one: the output and the progress reach the last item", async () => {
    const marked = storage.sessions.get("s")?.invalidatedAt;
    // Two more items, below the collector's threshold for marking the session again.
    storage.items.upsert(
      "s",
      LATER.map((turn, index) => ({ ...turn, key: `late${index}`, origin: { file: "t", line: index } })),
      TURNS.length,
    );
    const lastId = storage.items.maxId("s");
    expect(lastId).toBeGreaterThan(marked ?? 0);
    const llm = new FakeLlm({ answers: [answer("all eight turns")] });
    await runPhase1({ storage, config, clock, llm });
    expect(llm.lastCall?.prompt).toContain("trunk-stable");
    expect(storage.stage1.get("s")?.itemTo).toBe(lastId);
    expect(storage.sessions.get("s")).toMatchObject({ invalidatedAt: null, processedUntil: lastId });
  });

  it("take no model call for a session another process finished while it waited for its turn", async () => {
    addSession(storage, clock, { id: "t", updatedAt: now - DAY_MS + 5, items: TURNS });
    const serial = validateConfig({ extraction: { concurrency: 1 } });
    const llm = new FakeLlm({
      answers: [
        (request) => {
          // The other session, claimed by this run, is finished elsewhere before its turn comes.
          const other = request.prompt.includes('"s"') ? "t" : "s";
          const done = storage.items.maxId(other)!;
          storage.sessions.markProcessed(other, done, storage.sessions.get(other)!.invalidatedAt!);
          return answer("first session");
        },
      ],
    });
    const report = await runPhase1({ storage, config: serial, clock, llm });
    expect(report.jobs.map((job) => job.outcome)).toEqual(["succeeded", "unchanged"]);
    expect(llm.calls).toHaveLength(1);
    const second = report.jobs[1]!.sessionId;
    expect(storage.jobs.get("phase1", second)).toMatchObject({ status: "succeeded_no_output" });
  });

  it("without new items, one run finishes the session and the next has nothing to do", async () => {
    const llm = new FakeLlm({ answers: [answer("first six turns")] });
    await runPhase1({ storage, config, clock, llm });
    const lastId = storage.items.maxId("s");
    expect(storage.sessions.get("s")).toMatchObject({ invalidatedAt: null, processedUntil: lastId });
    const again = await runPhase1({ storage, config, clock, llm });
    expect(again.jobs).toEqual([]);
    expect(llm.calls).toHaveLength(1);
  });
});
