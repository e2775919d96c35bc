import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { generateHints, type HintsDeps } from "../../src/pipeline/hints/generateHints.js";
import { parseHintsBatch } from "../../src/pipeline/hints/parseHints.js";
import type { LlmRequest } from "../../src/providers/llm/types.js";
import { HINTS_KIND } from "../../src/store/queue/jobKinds.js";
import { JobQueue } from "../../src/store/queue/jobQueue.js";
import { MetaRepository } from "../../src/store/repositories/metaRepository.js";
import { chatAnswer, chatRequest, fakeModelConfig, quotedData } from "../helpers/fakeChatModel.js";
import { FakeLlm } from "../helpers/fakeLlm.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { tempDir } from "../helpers/tempDir.js";
import { makeStore } from "../memory/storeFixture.js";

const HOUR = 3_600_000;
const scope = "proj";

type Quoted = { id: number; content: string }[];

/** The question the fake model writes for a memory "Service N listens on port ...": it names N. */
const questionFor = (content: string) => `Which port does service ${/Service (\d+)/.exec(content)?.[1]} use?`;

/** An answer for the memories of a prompt, in reverse order: association is by number, not position. */
function answerAll(prompt: string, keep: (entry: { id: number; content: string }) => boolean = () => true) {
  const memories = quotedData<Quoted>(prompt).filter(keep);
  return { memories: memories.reverse().map(({ id, content }) => ({ id, questions: [questionFor(content)] })) };
}

const serviceNotes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ content: `Service ${i + 1} listens on port ${8000 + i + 1}`, scope }));

describe("hints are asked for in batches, through a real OpenAI-compatible wire format", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer((request) => {
      if (request.path === "/v1/models") return { body: { object: "list", data: [{ id: "fake-model" }] } };
      return chatAnswer(answerAll(chatRequest(request).prompt));
    });
  });
  afterAll(() => server.close());

  it("45 memories cost 3 calls, and each memory gets its own questions", async () => {
    const home = tempDir("cairn-hints-batch-");
    const cairn = new Cairn({
      home,
      env: { HOME: home },
      config: {
        ...fakeModelConfig(server),
        "recall.hints.enabled": true,
      },
    });
    try {
      await cairn.remember(serviceNotes(45));
      const report = await cairn.generateHints();
      expect(report).toMatchObject({ outcome: "completed", indexed: 45, hints: 45, failed: 0, pending: 0 });
      const calls = server.requests.filter((r) => r.path === "/v1/chat/completions");
      expect(calls.map((call) => quotedData<Quoted>(chatRequest(call).prompt).length).sort()).toEqual([20, 20, 5]);
      const pairs = cairn.storage.db
        .prepare("SELECT m.content, h.hint FROM memory_hints h JOIN memories m ON m.id = h.memory_id")
        .all() as { content: string; hint: string }[];
      expect(pairs).toHaveLength(45);
      for (const { content, hint } of pairs) expect(hint).toBe(questionFor(content));
    } finally {
      cairn.close();
    }
  });
});

/** A store with hints on, a job queue with a clock the test moves, and a fake model. */
function setup(batchSize?: number) {
  const hints = { enabled: true, max: 3, ...(batchSize === undefined ? {} : { batchSize }) };
  const config = defaultRecallConfig({ hints });
  const { db, store } = makeStore({ config: { hints } });
  let now = 1_700_000_000_000;
  const jobs = new JobQueue(db, { clock: () => now, random: () => 0.5, backoffBaseMs: 60_000 });
  const llm = new FakeLlm();
  const deps: HintsDeps = { db, store, jobs, meta: new MetaRepository(db), llm, config: config.hints, concurrency: 2 };
  const hintCount = () => (db.prepare("SELECT count(*) AS n FROM memory_hints").get() as { n: number }).n;
  return { store, jobs, llm, deps, hintCount, advance: (ms: number) => (now += ms) };
}

const sizes = (calls: LlmRequest[]) => calls.map((call) => quotedData<Quoted>(call.prompt).length);

describe("a batch answer that misses memories or is malformed", () => {
  it("asks again, in one smaller call, only for the memories the answer left out", async () => {
    const { store, llm, deps } = setup();
    await store.remember(serviceNotes(5));
    llm.enqueue(
      (request) => ({ json: answerAll(request.prompt, ({ id }) => id !== 2 && id !== 4) }),
      (request) => ({ json: answerAll(request.prompt) }),
    );
    const report = await generateHints(deps);
    expect(report).toMatchObject({ indexed: 5, failed: 0, pending: 0 });
    expect(sizes(llm.calls)).toEqual([5, 2]);
    expect(quotedData<Quoted>(llm.calls[1]!.prompt).map((m) => m.content)).toEqual([
      "Service 2 listens on port 8002",
      "Service 4 listens on port 8004",
    ]);
  });

  it("fails what the second answer misses too, keeps what was answered, and retries it on a later pass", async () => {
    const { store, llm, jobs, deps, advance } = setup();
    const written = await store.remember(serviceNotes(3));
    const third = written[2]!.id!;
    llm.respondWith((request) => ({ json: answerAll(request.prompt, ({ content }) => !content.includes("8003")) }));
    const first = await generateHints(deps);
    expect(first).toMatchObject({ indexed: 2, failed: 1, pending: 1 });
    expect(first.errors).toEqual([{ memoryId: third, error: "the answer gave this memory no usable question" }]);
    expect(sizes(llm.calls)).toEqual([3, 1]);
    expect(jobs.get(HINTS_KIND, String(third))).toMatchObject({ status: "failed" });
    advance(HOUR);
    llm.respondWith((request) => ({ json: answerAll(request.prompt) }));
    expect(await generateHints(deps)).toMatchObject({ indexed: 1, failed: 0, pending: 0 });
    expect(sizes(llm.calls)).toEqual([3, 1, 1]);
  });

  it("fails every memory of a malformed answer without a second call, and stores nothing for them", async () => {
    const { store, llm, deps, hintCount, advance } = setup();
    await store.remember(serviceNotes(4));
    llm.respondWith('{"memories": "all of them"}');
    const report = await generateHints(deps);
    expect(report).toMatchObject({ indexed: 0, failed: 4, pending: 4 });
    expect(report.errors[0]?.error).toBe('the answer has no "memories" list');
    expect(llm.calls).toHaveLength(1);
    expect(hintCount()).toBe(0);
    advance(HOUR);
    llm.respondWith((request) => ({ json: answerAll(request.prompt) }));
    expect(await generateHints(deps)).toMatchObject({ indexed: 4, pending: 0 });
    expect(llm.calls).toHaveLength(2);
  });

  it("honours a smaller recall.hints.batchSize", async () => {
    const { store, llm, deps } = setup(4);
    await store.remember(serviceNotes(10));
    llm.respondWith((request) => ({ json: answerAll(request.prompt) }));
    expect(await generateHints(deps)).toMatchObject({ indexed: 10 });
    expect(sizes(llm.calls).sort()).toEqual([2, 4, 4]);
  });
});

describe("parseHintsBatch", () => {
  it("keeps usable entries by number and leaves out unknown numbers, repeats and empty entries", () => {
    const text = JSON.stringify({
      memories: [
        { id: 2, questions: ["  Which   port? ", "which port?"] },
        { id: 2, questions: ["Second entry for two?"] },
        { id: 9, questions: ["Out of range?"] },
        { id: 1, questions: ["", 7] },
        { id: "3", questions: ["Not a number id?"] },
        { id: 3, questions: "not a list" },
      ],
    });
    expect(parseHintsBatch(text, { max: 5, count: 3 })).toEqual({ hints: new Map([[2, ["Which port?"]]]) });
  });

  it("accepts the single-memory shapes only for a batch of one, and names an unusable answer", () => {
    expect(parseHintsBatch('{"questions": ["Why?"]}', { max: 5, count: 1 })).toEqual({
      hints: new Map([[1, ["Why?"]]]),
    });
    expect(parseHintsBatch('{"questions": ["Why?"]}', { max: 5, count: 2 })).toEqual({
      problem: 'the answer has no "memories" list',
    });
    expect(parseHintsBatch("Sure, here you go", { max: 5, count: 2 })).toEqual({ problem: "the answer is not JSON" });
  });
});
