import { beforeEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import { buildStage1Prompt } from "../../src/pipeline/phase1/extractSession.js";
import { runPhase1 } from "../../src/pipeline/phase1/runPhase1.js";
import type { LlmRequest } from "../../src/providers/llm/types.js";
import type { Storage } from "../../src/store/storage.js";
import { DAY_MS } from "../../src/util/clock.js";
import { FakeLlm } from "../helpers/fakeLlm.js";
import { addSession, memoryStorage } from "../helpers/store.js";

const answer = {
  json: { rollout_summary: "Fixed the parser.", rollout_slug: "fix-parser", raw_memory: "- pnpm test", facts: [] },
};
/** The prompt with its random boundary taken out, so two renderings of one session compare equal. */
const withoutBoundary = (prompt: string) => prompt.replace(/\b[0-9a-f]{12}\b/g, "BOUNDARY");
const sessionOf = (request: LlmRequest) => /bench-\d+|s\d+/.exec(request.prompt)?.[0];

function turns(session: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    role: i % 2 ? ("assistant" as const) : ("user" as const),
    text: `Session ${session}, turn ${i}: run the parser tests with pnpm test and fix what fails.`,
  }));
}

describe("stage-1 prompts built ahead while the model answers", () => {
  let now: number;
  let storage: Storage;
  const clock = () => now;

  beforeEach(() => {
    now = 100 * DAY_MS;
    storage = memoryStorage(clock);
  });

  it("sends every session the prompt rendering it at its turn gives, whatever the concurrency", async () => {
    for (let s = 0; s < 6; s++)
      addSession(storage, clock, { id: `s${s}`, updatedAt: now - DAY_MS, items: turns(s, 8) });
    const expected = new Map(
      [0, 1, 2, 3, 4, 5].map((s) => {
        const session = storage.sessions.get(`s${s}`)!;
        const config = validateConfig({});
        const built = buildStage1Prompt(session, storage.items.list(session.id), {
          maxInputTokens: config.extraction.maxInputTokens,
          toolOutputMaxTokens: config.extraction.toolOutputMaxTokens,
        });
        return [session.id, withoutBoundary(built.prompt)];
      }),
    );
    // The model takes a while, so the next sessions are prepared during each call.
    const llm = new FakeLlm({ fallback: () => new Promise((resolve) => setTimeout(() => resolve(answer), 5)) });
    const report = await runPhase1({ storage, config: validateConfig({ extraction: { concurrency: 2 } }), clock, llm });
    expect(report.jobs.map((job) => job.outcome)).toEqual(Array(6).fill("succeeded"));
    expect(llm.calls).toHaveLength(6);
    for (const call of llm.calls) expect(withoutBoundary(call.prompt)).toBe(expected.get(sessionOf(call)!));
  });

  it("renders a session again when it changed after its prompt was built ahead", async () => {
    for (let s = 0; s < 3; s++)
      addSession(storage, clock, { id: `s${s}`, updatedAt: now - DAY_MS, items: turns(s, 8) });
    const llm = new FakeLlm({
      fallback: (request) =>
        new Promise((resolve) =>
          // s1 is prepared while s0's call is out; s1 then gains an item before its turn.
          setTimeout(() => {
            if (sessionOf(request) === "s0") {
              addSession(storage, clock, {
                id: "s1",
                updatedAt: now - DAY_MS / 2,
                items: [...turns(1, 8), { role: "user", text: "Also: the API now listens on port 8080." }],
              });
            }
            resolve(answer);
          }, 5),
        ),
    });
    const report = await runPhase1({ storage, config: validateConfig({ extraction: { concurrency: 1 } }), clock, llm });
    expect(report.jobs.map((job) => job.outcome)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const s1 = llm.calls.find((call) => sessionOf(call) === "s1")!;
    expect(s1.prompt).toContain("the API now listens on port 8080");
    expect(storage.stage1.get("s1")?.itemTo).toBe(storage.items.list("s1").at(-1)?.id);
  });
});
