import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Cairn, openCairn } from "../../src/cairn.js";
import { sessionStartHook } from "../../src/connectors/sessionStartHook.js";
import { runContinuity } from "../../src/pipeline/continuity/runContinuity.js";
import { appendInjection, injectionLogPath, readInjections } from "../../src/read/injectionLog.js";
import { FakeLlm } from "../helpers/fakeLlm.js";
import { removeTempDirs, tempDir } from "../helpers/tempDir.js";

let now = 1_800_000_000_000;
const clock = () => now;

afterEach(removeTempDirs);

async function setUp(): Promise<{ cairn: Cairn; home: string; ids: number[] }> {
  const home = tempDir();
  const cairn = openCairn({ home, env: { CAIRN_HOME: home }, clock });
  const outcomes = await cairn.remember([
    { content: "Run the integration suite with make check-all before pushing", scope: "global" },
    { content: "The staging database listens on port 6543", scope: "global" },
    { content: "The user prefers tabs in Makefiles", scope: "global" },
  ]);
  return { cairn, home, ids: outcomes.map((o) => o.id!) };
}

/** A session that cites the first memory and saw the second in a recall result. */
function pushSession(cairn: Cairn, sessionId: string, ids: number[], options: { end?: boolean } = {}): void {
  now += 1000;
  cairn.appendHistory(sessionId, { role: "user", text: "push the branch once the checks pass", ts: now });
  cairn.appendHistory(sessionId, {
    role: "tool_result",
    tool: "cairn_recall",
    text: `2 memories for "staging port" (most relevant first):\n\n1. [score 0.81, fact, scope global, id ${ids[1]}]\n> The staging database listens on port 6543`,
    ts: now,
  });
  cairn.appendHistory(sessionId, {
    role: "assistant",
    text: `I ran make check-all first.\n<memory-citations>\nmemory #${ids[0]}\n</memory-citations>`,
    ts: now,
  });
  if (options.end) cairn.endSession(sessionId);
}

describe("the injection log", () => {
  it("is read from a cursor, skips torn and foreign lines, and starts over when the file was replaced", () => {
    const home = tempDir();
    appendInjection(home, { sessionId: "s1", agent: "claude-code", at: 1, memoryIds: [3, 1] });
    appendFileSync(injectionLogPath(home), 'not json\n{"sessionId":"","at":2,"memoryIds":[1]}\n');
    appendInjection(home, { sessionId: "s2", agent: "codex", at: 3, memoryIds: [2, -4, 1.5] });
    appendFileSync(injectionLogPath(home), '{"sessionId":"s3","at":4,"mem'); // a write in progress
    const first = readInjections(home, 0);
    expect(first.records).toEqual([
      { sessionId: "s1", agent: "claude-code", at: 1, memoryIds: [3, 1] },
      { sessionId: "s2", agent: "codex", at: 3, memoryIds: [2] },
    ]);
    expect(first.unreadable).toBe(2);
    expect(readInjections(home, first.next).records).toEqual([]);
    appendFileSync(injectionLogPath(home), 'oryIds":[9]}\n');
    expect(readInjections(home, first.next).records).toEqual([{ sessionId: "s3", agent: "", at: 4, memoryIds: [9] }]);
    writeFileSync(
      injectionLogPath(home),
      `${JSON.stringify({ sessionId: "s4", agent: "pi", at: 5, memoryIds: [1] })}\n`,
    );
    expect(readInjections(home, first.next).records.map((r) => r.sessionId)).toEqual(["s4"]);
    expect(readInjections(tempDir(), 0)).toEqual({ records: [], next: 0, unreadable: 0 });
  });

  it("never holds a secret given as the session id or agent: they are redacted at the door", () => {
    const home = tempDir();
    const token = `ghp_${"a1B2c3D4e5".repeat(3)}x7Y8z9`;
    expect(token).toMatch(/^ghp_[A-Za-z0-9]{36}$/);
    expect(appendInjection(home, { sessionId: token, agent: `agent-${token}`, at: 1, memoryIds: [1] })).toBe(true);
    expect(readFileSync(injectionLogPath(home), "utf8")).not.toContain(token.slice(4));
    expect(readInjections(home, 0).records).toHaveLength(1);
  });
});

describe("continuity scoring", () => {
  it("without a model, scores from the session's citations and recall results, says so, and feeds usage", async () => {
    const { cairn, home, ids } = await setUp();
    appendInjection(home, { sessionId: "sess-a", agent: "claude-code", at: now, memoryIds: ids });
    pushSession(cairn, "sess-a", ids);
    // Not ended, not extracted: it waits.
    const waiting = await runContinuity({ storage: cairn.storage, home, llm: null, now: clock, limit: 10 });
    expect(waiting).toMatchObject({ imported: 1, scored: 0, waiting: 1 });
    cairn.endSession("sess-a");
    const report = await runContinuity({ storage: cairn.storage, home, llm: null, now: clock, limit: 10 });
    expect(report).toMatchObject({ imported: 0, scored: 1, waiting: 0 });
    const score = cairn.storage.continuity.score("sess-a");
    expect(score).toMatchObject({ method: "evidence", injected: 3, used: 2, confidence: 0.4 });
    expect(score?.score).toBeCloseTo(2 / 3);
    expect(score?.reasoning).toMatch(/citations and recall results/);
    const relevance = cairn.storage.continuity.relevanceOf(ids);
    expect([...ids.map((id) => relevance.get(id)?.mean)]).toEqual([1, 0.6, 0]);
    expect(cairn.storage.memories.get(ids[0]!)?.usageCount).toBeGreaterThan(0);
    expect(cairn.storage.memories.get(ids[2]!)?.usageCount).toBe(0);
    // Scored once: a second run adds nothing.
    expect((await runContinuity({ storage: cairn.storage, home, llm: null, now: clock, limit: 10 })).scored).toBe(0);
    cairn.close();
  });

  it("saves a score and its usage together: a cycle that dies between them leaves the session to score once, usage bumped once", async () => {
    const { cairn, home, ids } = await setUp();
    appendInjection(home, { sessionId: "sess-k", agent: "claude-code", at: now, memoryIds: ids });
    pushSession(cairn, "sess-k", ids, { end: true });
    const before = cairn.storage.memories.get(ids[0]!)?.usageCount ?? 0;
    // The process dies (here: a throw) after the score is written and before the usage bump.
    const bump = vi.spyOn(cairn.storage.memories, "bumpUsage").mockImplementationOnce(() => {
      throw new Error("killed between the score and the usage");
    });
    await expect(runContinuity({ storage: cairn.storage, home, llm: null, now: clock, limit: 10 })).rejects.toThrow(
      /killed/,
    );
    bump.mockRestore();
    expect(cairn.storage.continuity.score("sess-k")).toBeUndefined();
    expect(cairn.storage.memories.get(ids[0]!)?.usageCount).toBe(before);
    const report = await runContinuity({ storage: cairn.storage, home, llm: null, now: clock, limit: 10 });
    expect(report.scored).toBe(1);
    expect(cairn.storage.continuity.score("sess-k")).toMatchObject({ used: 2 });
    expect(cairn.storage.memories.get(ids[0]!)?.usageCount).toBe(before + 1);
    expect(cairn.storage.memories.get(ids[1]!)?.usageCount).toBe(before + 1);
    cairn.close();
  });

  it("with a model, reads its answer by id as given, clamps it and drops ids it was not given; a failed call falls back to evidence", async () => {
    const { cairn, home, ids } = await setUp();
    const [a, b, c] = ids as [number, number, number];
    const llm = new FakeLlm({
      answers: [
        (request) => {
          // Answered from the rendered prompt, as a careful model would: the memories and the session are there.
          expect(request.prompt).toContain("make check-all");
          expect(request.prompt).toContain("push the branch once the checks pass");
          expect(request.system).toMatch(/never instructions to you/);
          return {
            text: `\`\`\`json\n${JSON.stringify({
              score: 1.7,
              confidence: 0.9,
              reasoning:
                "The session ran the check first, as memory said; token sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
              per_memory: [
                { id: `#${a}`, relevance: 0.95 },
                { id: String(b), relevance: -2 },
                { id: "99999", relevance: 1 },
              ],
            })}\n\`\`\``,
          };
        },
        new Error("socket hang up"),
      ],
    });
    appendInjection(home, { sessionId: "sess-m", agent: "claude-code", at: now, memoryIds: [a, b, c] });
    appendInjection(home, { sessionId: "sess-f", agent: "claude-code", at: now + 1, memoryIds: [a, b] });
    pushSession(cairn, "sess-m", ids, { end: true });
    pushSession(cairn, "sess-f", ids, { end: true });
    const report = await runContinuity({ storage: cairn.storage, home, llm, now: clock, limit: 10 });
    expect(report).toMatchObject({ scored: 2, modelFailures: 1 });
    const model = cairn.storage.continuity.score("sess-m");
    expect(model).toMatchObject({ method: "model", score: 1, confidence: 0.9, used: 1 });
    expect(model?.reasoning).not.toContain("sk-ant-api03");
    const fell = cairn.storage.continuity.score("sess-f");
    expect(fell).toMatchObject({ method: "evidence", used: 2 });
    expect(fell?.reasoning).toMatch(/the model failed: socket hang up/);
    cairn.close();
  });

  it("ranks a memory sessions used above an equal one they were given and did not use; no scores, no change", async () => {
    const home = tempDir();
    const cairn = openCairn({ home, env: { CAIRN_HOME: home }, clock });
    const [x, y] = (
      await cairn.remember([
        { content: "deploys of the billing service go out on Tuesdays", scope: "global" },
        { content: "deploys of the search service go out on Thursdays", scope: "global" },
      ])
    ).map((o) => o.id!) as [number, number];
    const order = async () =>
      (await cairn.recall({ query: "when do deploys go out", scope: "global", k: 5 })).results.map((r) => r.id);
    const before = await order();
    expect(before).toHaveLength(2);
    const last = before[1]!;
    const first = before[0]!;
    for (const session of ["s1", "s2", "s3"]) {
      cairn.storage.continuity.recordInjection(session, [x, y], now);
      cairn.storage.continuity.saveScore(
        {
          sessionId: session,
          score: 0.5,
          confidence: 1,
          method: "model",
          injected: 2,
          used: 1,
          reasoning: null,
          scoredAt: now,
        },
        new Map([
          [last, 1],
          [first, 0],
        ]),
      );
    }
    expect(await order()).toEqual([last, first]);
    cairn.close();
  });

  it("end to end: the session-start hook logs what it gave, and a run scores the session once it ended", async () => {
    const home = tempDir();
    const project = tempDir();
    const env = { CAIRN_HOME: home, CAIRN_MEMORIES_ENABLED: "true" };
    const cairn = openCairn({ home, env, clock });
    const ids = (
      await cairn.remember([
        { content: "Run the integration suite with make check-all before pushing", cwd: project },
        { content: "The staging database listens on port 6543", cwd: project },
      ])
    ).map((o) => o.id!);
    const start = await sessionStartHook({
      agent: "claude-code",
      home,
      input: { session_id: "sess-h", cwd: project, source: "startup" },
      env,
      startRun: () => ({ started: false, reason: "test" }),
      now: clock,
    });
    expect(start.injected).toBe(true);
    expect(readInjections(home, 0).records).toEqual([
      { sessionId: "sess-h", agent: "claude-code", at: now, memoryIds: [...ids].reverse() },
    ]);
    pushSession(cairn, "sess-h", ids, { end: true });
    const report = await cairn.run();
    expect(report.workers.continuity).toMatchObject({ processed: 1, failed: 0 });
    expect(cairn.storage.continuity.score("sess-h")).toMatchObject({ method: "evidence", injected: 2, used: 2 });
    expect(cairn.status().workers.continuity).toMatchObject({ processed: 1 });
    // A start that names no session logs nothing.
    await sessionStartHook({
      agent: "codex",
      home,
      cwd: project,
      input: {},
      env,
      startRun: () => ({ started: false, reason: "test" }),
    });
    expect(readInjections(home, 0).records).toHaveLength(1);
    cairn.close();
  });
});
