import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AnthropicProvider, anthropicToolName } from "../../src/providers/llm/anthropic.js";
import { ProviderError } from "../../src/providers/llm/types.js";
import { json, type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";

const message = (content: unknown[], stopReason = "end_turn") => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-haiku-4-5-20251001",
  content,
  stop_reason: stopReason,
  usage: { input_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 12, output_tokens: 9 },
});

const schema = { type: "object", properties: { slug: { type: "string" } }, required: ["slug"] };

describe("AnthropicProvider", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer(() => json({}));
  });
  afterAll(() => server.close());
  beforeEach(() => server.setHandler(() => json(message([{ type: "text", text: "Hello" }]))));

  const provider = () =>
    new AnthropicProvider({ baseUrl: server.url, apiKey: "sk-ant-test-0123456789", timeoutMs: 5_000 });

  it("sends a Messages request with the system prompt at the top level", async () => {
    const result = await provider().generate({ system: "Be brief.", prompt: "hi", temperature: 0 });
    expect(result).toEqual({
      text: "Hello",
      usage: { inputTokens: 42, outputTokens: 9 },
      provider: "anthropic",
      model: "claude-haiku-4-5",
      warnings: [],
    });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe("sk-ant-test-0123456789");
    expect(request.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request.body).toMatchInlineSnapshot(`
      {
        "max_tokens": 8192,
        "messages": [
          {
            "content": "hi",
            "role": "user",
          },
        ],
        "model": "claude-haiku-4-5",
        "system": "Be brief.",
        "temperature": 0,
      }
    `);
  });

  it("asks for schema output with a forced tool call and returns the tool input as JSON text", async () => {
    server.setHandler(() =>
      json(message([{ type: "tool_use", id: "toolu_1", name: "stage-1", input: { slug: "fix-ci" } }], "tool_use")),
    );
    const result = await provider().generate({
      system: "Extract.",
      prompt: "the session",
      jsonSchema: { name: "stage-1", schema },
      maxOutputTokens: 2000,
    });
    expect(result.text).toBe('{"slug":"fix-ci"}');
    expect(result.warnings).toEqual([]);
    expect(server.requests.at(-1)!.body).toMatchInlineSnapshot(`
      {
        "max_tokens": 2000,
        "messages": [
          {
            "content": "the session",
            "role": "user",
          },
        ],
        "model": "claude-haiku-4-5",
        "system": "Extract.",
        "tool_choice": {
          "name": "stage-1",
          "type": "tool",
        },
        "tools": [
          {
            "description": "Record the answer. Call exactly once.",
            "input_schema": {
              "properties": {
                "slug": {
                  "type": "string",
                },
              },
              "required": [
                "slug",
              ],
              "type": "object",
            },
            "name": "stage-1",
          },
        ],
      }
    `);
  });

  it("falls back to the text with a warning when the tool was not called", async () => {
    server.setHandler(() => json(message([{ type: "text", text: '{"slug":"x"}' }])));
    const result = await provider().generate({ system: "s", prompt: "p", jsonSchema: { name: "stage1", schema } });
    expect(result.text).toBe('{"slug":"x"}');
    expect(result.warnings).toEqual([
      "anthropic: the model did not call the answer tool; its text is returned instead",
    ]);
  });

  it("warns when the answer hit max_tokens", async () => {
    server.setHandler(() => json(message([{ type: "text", text: "Hel" }], "max_tokens")));
    const result = await provider().generate({ system: "s", prompt: "p" });
    expect(result.warnings).toEqual(["anthropic: the answer was cut off at the output token limit"]);
  });

  it("turns stop_reason refusal into a non-retryable refusal error", async () => {
    server.setHandler(() => json(message([{ type: "text", text: "I won't do that." }], "refusal")));
    const error = await provider()
      .generate({ system: "s", prompt: "p" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "refusal", isRetryable: false });
    expect((error as Error).message).toBe("anthropic: the model refused: I won't do that.");
  });

  it("fails with a config error and no request when no API key is set", async () => {
    const before = server.requests.length;
    const keyless = new AnthropicProvider({ baseUrl: server.url });
    await expect(keyless.generate({ system: "s", prompt: "p" })).rejects.toMatchObject({
      kind: "config",
      isRetryable: false,
    });
    expect(await keyless.available()).toBe(false);
    expect(server.requests.length).toBe(before);
  });

  it("is available with a key, without a network call", async () => {
    const before = server.requests.length;
    expect(await provider().available()).toBe(true);
    expect(server.requests.length).toBe(before);
  });

  it("accepts a base URL that already ends in /v1", async () => {
    await new AnthropicProvider({ baseUrl: `${server.url}/v1/`, apiKey: "k" }).generate({ system: "", prompt: "p" });
    expect(server.requests.at(-1)!.path).toBe("/v1/messages");
  });
});

describe("anthropicToolName", () => {
  it("keeps only the characters tool names allow", () => {
    expect(anthropicToolName("stage 1.output")).toBe("stage_1_output");
    expect(anthropicToolName("")).toBe("answer");
    expect(anthropicToolName("x".repeat(80))).toHaveLength(64);
  });
});
