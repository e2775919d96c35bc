import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OpenAiProvider } from "../../src/providers/llm/openai.js";
import { ProviderError } from "../../src/providers/llm/types.js";
import { json, type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";

const completion = (message: Record<string, unknown>, finishReason = "stop") => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  model: "gpt-5-mini-2025-08-07",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason }],
  usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
});

describe("OpenAiProvider", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer(() => json(completion({ content: '{"ok":true}', refusal: null })));
  });
  afterAll(() => server.close());
  beforeEach(() => server.setHandler(() => json(completion({ content: '{"ok":true}', refusal: null }))));

  const provider = (model = "gpt-5-mini") =>
    new OpenAiProvider({ baseUrl: `${server.url}/v1/`, apiKey: "sk-test-0123456789", model, timeoutMs: 5_000 });

  it("sends a chat completion with a JSON schema and reads text and usage", async () => {
    const result = await provider().generate({
      system: "You extract memories.",
      prompt: "the session",
      jsonSchema: { name: "stage1", schema: { type: "object", properties: { ok: { type: "boolean" } } } },
      maxOutputTokens: 500,
    });
    expect(result).toEqual({
      text: '{"ok":true}',
      usage: { inputTokens: 42, outputTokens: 7 },
      provider: "openai",
      model: "gpt-5-mini",
      warnings: [],
    });
    const request = server.requests.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer sk-test-0123456789");
    expect(request.body).toMatchInlineSnapshot(`
      {
        "max_completion_tokens": 500,
        "messages": [
          {
            "content": "You extract memories.",
            "role": "system",
          },
          {
            "content": "the session",
            "role": "user",
          },
        ],
        "model": "gpt-5-mini",
        "response_format": {
          "json_schema": {
            "name": "stage1",
            "schema": {
              "properties": {
                "ok": {
                  "type": "boolean",
                },
              },
              "type": "object",
            },
            "strict": false,
          },
          "type": "json_schema",
        },
      }
    `);
  });

  it("passes temperature and max_tokens to non-reasoning models", async () => {
    await provider("llama-3.1-8b").generate({ system: "", prompt: "hi", temperature: 0.2, maxOutputTokens: 100 });
    expect(server.requests.at(-1)!.body).toMatchInlineSnapshot(`
      {
        "max_tokens": 100,
        "messages": [
          {
            "content": "hi",
            "role": "user",
          },
        ],
        "model": "llama-3.1-8b",
        "temperature": 0.2,
      }
    `);
  });

  it("drops temperature for reasoning models with a warning", async () => {
    const result = await provider("gpt-5-mini").generate({ system: "s", prompt: "p", temperature: 0 });
    expect(result.warnings).toEqual(["openai: temperature is not supported by gpt-5-mini and was ignored"]);
    expect(server.requests.at(-1)!.body).not.toHaveProperty("temperature");
  });

  it("keeps unknown usage undefined", async () => {
    server.setHandler(() => json({ choices: [{ message: { content: "hi" }, finish_reason: "stop" }] }));
    const result = await provider().generate({ system: "s", prompt: "p" });
    expect(result.usage).toEqual({ inputTokens: undefined, outputTokens: undefined });
  });

  it("warns when the answer was cut off", async () => {
    server.setHandler(() => json(completion({ content: '{"ok":', refusal: null }, "length")));
    const result = await provider().generate({ system: "s", prompt: "p" });
    expect(result.warnings).toEqual(["openai: the answer was cut off at the output token limit"]);
  });

  it("turns a refusal into a non-retryable refusal error", async () => {
    server.setHandler(() => json(completion({ content: null, refusal: "I can't help with that." })));
    const error = await provider()
      .generate({ system: "s", prompt: "p" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "refusal", isRetryable: false, provider: "openai" });
    expect((error as Error).message).toBe("openai: the model refused: I can't help with that.");
  });

  it("treats finish_reason content_filter as a refusal", async () => {
    server.setHandler(() => json(completion({ content: "" }, "content_filter")));
    await expect(provider().generate({ system: "s", prompt: "p" })).rejects.toMatchObject({ kind: "refusal" });
  });

  it("reports a 2xx answer without choices as malformed", async () => {
    server.setHandler(() => json({ object: "chat.completion" }));
    await expect(provider().generate({ system: "s", prompt: "p" })).rejects.toMatchObject({
      kind: "malformed",
      isRetryable: true,
    });
  });

  it("is available when GET /models answers 2xx", async () => {
    server.setHandler((request) => (request.path === "/v1/models" ? json({ data: [] }) : json({}, 404)));
    expect(await provider().available()).toBe(true);
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer sk-test-0123456789");
    server.setHandler(() => json({ error: { message: "bad key" } }, 401));
    expect(await provider().available()).toBe(false);
  });

  it("is unavailable when nothing listens", async () => {
    const closed = await startLoopbackServer(() => json({}));
    await closed.close();
    expect(await new OpenAiProvider({ baseUrl: closed.url }).available()).toBe(false);
  });
});
