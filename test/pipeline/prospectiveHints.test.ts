import { describe, expect, it } from "vitest";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { generateHints, type HintsDeps } from "../../src/pipeline/hints/generateHints.js";
import { parseHints } from "../../src/pipeline/hints/parseHints.js";
import { HINTS_KIND } from "../../src/store/queue/jobKinds.js";
import { JobQueue } from "../../src/store/queue/jobQueue.js";
import { MetaRepository } from "../../src/store/repositories/metaRepository.js";
import { quotedData } from "../helpers/fakeChatModel.js";
import { FakeLlm, providerError } from "../helpers/fakeLlm.js";
import { makeStore } from "../memory/storeFixture.js";

const HOUR = 3_600_000;
const scope = "proj";

/** A store with hints on, a job queue on its database with a clock the test moves, and a fake model. */
function setup(options: { enabled?: boolean; llm?: FakeLlm | null } = {}) {
  const config = defaultRecallConfig({ hints: { enabled: options.enabled ?? true, max: 3 } });
  const { db, store } = makeStore({ config: { hints: { enabled: options.enabled ?? true, max: 3 } } });
  let now = 1_700_000_000_000;
  const jobs = new JobQueue(db, { clock: () => now, random: () => 0.5, backoffBaseMs: 60_000 });
  const llm = options.llm === undefined ? new FakeLlm() : options.llm;
  const deps: HintsDeps = { db, store, jobs, meta: new MetaRepository(db), llm, config: config.hints, concurrency: 2 };
  return { db, store, jobs, llm, deps, advance: (ms: number) => (now += ms) };
}

const questions = (...q: string[]) => ({ json: { questions: q } });

describe("parseHints", () => {
  it("accepts the object, a bare list and fenced JSON; trims, dedupes and caps at max", () => {
    expect(
      parseHints('{"questions": ["  Which package manager?  ", "which package manager?", "How to test?"]}', 5),
    ).toEqual({
      hints: ["Which package manager?", "How to test?"],
    });
    expect(parseHints('```json\n["a?", "b?", "c?"]\n```', 2)).toEqual({ hints: ["a?", "b?"] });
    expect(parseHints(`{"questions": ["${"x".repeat(400)}", 7, "ok?"]}`, 5)).toEqual({ hints: ["ok?"] });
  });

  it("names the problem of an unusable answer instead of throwing", () => {
    expect(parseHints("Sure! Here are some questions.", 5)).toEqual({ problem: "the answer is not JSON" });
    expect(parseHints('{"poem": "roses"}', 5)).toEqual({ problem: 'the answer has no "questions" list' });
    expect(parseHints('{"questions": ["", "   "]}', 5)).toEqual({ problem: "the answer lists no usable question" });
  });
});

describe("generateHints", () => {
  it("indexes each memory with the model's questions, so recall finds it by words it does not contain", async () => {
    const { store, llm, deps } = setup();
    const [pnpm] = await store.remember([
      { content: "Always run pnpm install, never npm, in this repository", scope },
      { content: "The staging database is refreshed every Sunday night", scope },
    ]);
    llm!.respondWith((request) => ({
      json: {
        memories: quotedData<{ id: number; content: string }[]>(request.prompt).map(({ id, content }) => ({
          id,
          questions: content.includes("pnpm")
            ? ["Where does the third-party code come from?", "How do I install dependencies?"]
            : ["When is staging data reset?"],
        })),
      },
    }));
    const before = await store.recall({ query: "where does third-party code come from?", scopes: [scope] });
    expect(before.results.map((r) => r.id)).not.toContain(pnpm!.id!);

    const report = await generateHints(deps);
    expect(report).toMatchObject({ outcome: "completed", enqueued: 2, indexed: 2, hints: 3, failed: 0, pending: 0 });
    const after = await store.recall({ query: "where does third-party code come from?", scopes: [scope] });
    expect(after.results[0]).toMatchObject({ id: pnpm!.id! });
    // Found through its hint only: capped below a direct match (seed 004: max, never a sum).
    expect(after.results[0]!.score).toBeLessThanOrEqual(0.75);
  });

  it("sends the memory as redacted data in the prompt, never in the instructions", async () => {
    const { store, llm, deps } = setup();
    await store.remember({ content: "Deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789 to staging", scope });
    llm!.respondWith(questions("How is staging deployed?"));
    await generateHints(deps);
    const call = llm!.lastCall!;
    expect(call.system).toContain("At most 3 questions");
    expect(call.system).not.toContain("staging");
    expect(call.prompt).toContain("Deploy with token");
    expect(call.prompt).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    expect(call.jsonSchema?.name).toBe("prospective_hints");
  });

  it("only asks about memories it has not indexed yet, and picks up new ones", async () => {
    const { store, llm, deps } = setup();
    await store.remember({ content: "Use vitest for unit tests", scope });
    llm!.respondWith(questions("Which test runner?"));
    expect((await generateHints(deps)).indexed).toBe(1);
    expect((await generateHints(deps)).enqueued).toBe(0);
    await store.remember({ content: "Biome formats the code", scope });
    const third = await generateHints(deps);
    expect(third).toMatchObject({ enqueued: 1, indexed: 1 });
    expect(llm!.calls).toHaveLength(2);
  });

  it("retries a failed call with backoff and keeps the memory as it was", async () => {
    const { store, llm, jobs, deps, advance } = setup();
    const [memory] = await store.remember([{ content: "The API listens on port 8080", scope }]);
    llm!.enqueue(providerError("http", { statusCode: 503 }), questions("Which port does the API use?"));
    const first = await generateHints(deps);
    expect(first).toMatchObject({ indexed: 0, failed: 1, pending: 1 });
    expect(first.errors[0]).toMatchObject({ memoryId: memory!.id! });
    expect(jobs.get(HINTS_KIND, String(memory!.id!))).toMatchObject({ status: "failed" });
    // Not due yet: nothing is claimed and no call is made.
    expect((await generateHints(deps)).indexed).toBe(0);
    expect(llm!.calls).toHaveLength(1);
    advance(HOUR);
    expect(await generateHints(deps)).toMatchObject({ indexed: 1, failed: 0, pending: 0 });
    expect(store.get(memory!.id!)?.content).toBe("The API listens on port 8080");
  });

  it("gives up on a memory after three unusable answers", async () => {
    const { store, llm, jobs, deps, advance } = setup();
    const [memory] = await store.remember([{ content: "Releases are tagged from main", scope }]);
    llm!.respondWith("I cannot answer in JSON, sorry.");
    for (let pass = 0; pass < 4; pass++) {
      await generateHints(deps);
      advance(24 * HOUR);
    }
    expect(llm!.calls).toHaveLength(3);
    expect(jobs.get(HINTS_KIND, String(memory!.id!))).toMatchObject({
      status: "dead",
      lastError: "the answer is not JSON",
    });
  });

  it("waits without spending an attempt while the model is unavailable", async () => {
    const { store, llm, jobs, deps } = setup();
    const [memory] = await store.remember([{ content: "CI runs on two cores", scope }]);
    llm!.isAvailable = false;
    const report = await generateHints(deps);
    expect(report).toMatchObject({ outcome: "skipped", pending: 1 });
    expect(report.reason).toContain("unavailable");
    expect(jobs.get(HINTS_KIND, String(memory!.id!))).toMatchObject({ status: "pending", attempts: 0 });
    llm!.isAvailable = true;
    llm!.respondWith(questions("How many cores does CI have?"));
    expect((await generateHints(deps)).indexed).toBe(1);
  });

  it("skips forgotten memories, and does nothing when off or offline", async () => {
    const { store, llm, deps } = setup();
    const [memory] = await store.remember([{ content: "Temporary note about the build", scope }]);
    store.forget(memory!.id!);
    expect(await generateHints(deps)).toMatchObject({ enqueued: 0, indexed: 0 });

    const off = setup({ enabled: false });
    await off.store.remember({ content: "Something to index", scope });
    expect(await generateHints(off.deps)).toMatchObject({
      outcome: "skipped",
      reason: "recall.hints.enabled is false",
    });
    const offline = setup({ llm: null });
    await offline.store.remember({ content: "Something to index", scope });
    const report = await generateHints(offline.deps);
    expect(report).toMatchObject({ outcome: "skipped" });
    expect(report.reason).toContain("need an LLM");
    expect(llm!.calls).toHaveLength(0);
  });
});
