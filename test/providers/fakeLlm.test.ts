import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/providers/llm/types.js";
import { FakeLlm, providerError } from "../helpers/fakeLlm.js";

describe("FakeLlm", () => {
  it("answers from its queue in order and records every request", async () => {
    const llm = new FakeLlm({ answers: ["first", { json: { a: 1 }, usage: { inputTokens: 3 } }] });
    expect((await llm.generate({ system: "s", prompt: "one" })).text).toBe("first");
    const second = await llm.generate({ system: "s", prompt: "two" });
    expect(second).toEqual({
      text: '{"a":1}',
      usage: { inputTokens: 3 },
      provider: "fake",
      model: "fake-model",
      warnings: [],
    });
    expect(llm.calls.map((call) => call.prompt)).toEqual(["one", "two"]);
    expect(llm.lastCall?.prompt).toBe("two");
  });

  it("fails loudly when no answer is queued", async () => {
    await expect(new FakeLlm().generate({ system: "", prompt: "unexpected call" })).rejects.toThrow(
      'FakeLlm: no answer queued for call 1 (prompt starts "unexpected call")',
    );
  });

  it("computes answers with a function and throws queued errors", async () => {
    const llm = new FakeLlm({ fallback: (request) => ({ json: { echo: request.prompt } }) });
    llm.enqueue(providerError("http", { statusCode: 429, retryAfterMs: 1000 }));
    const error = await llm.generate({ system: "", prompt: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "http", statusCode: 429, isRetryable: true, retryAfterMs: 1000 });
    expect((await llm.generate({ system: "", prompt: "hi" })).text).toBe('{"echo":"hi"}');
    expect(providerError("refusal").isRetryable).toBe(false);
  });

  it("reports availability as told", async () => {
    expect(await new FakeLlm({ available: false }).available()).toBe(false);
  });
});
