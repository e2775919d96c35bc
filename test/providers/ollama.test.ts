import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OllamaProvider, ollamaBaseUrlFromHost } from "../../src/providers/llm/ollama.js";
import { json, type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";

const chat = (content: string, doneReason = "stop") => ({
  model: "qwen2.5:7b",
  created_at: "2026-01-01T00:00:00Z",
  message: { role: "assistant", content },
  done: true,
  done_reason: doneReason,
  prompt_eval_count: 61,
  eval_count: 13,
});

describe("OllamaProvider", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer(() => json({}));
  });
  afterAll(() => server.close());
  beforeEach(() => server.setHandler(() => json(chat('{"ok":true}'))));

  const provider = () => new OllamaProvider({ baseUrl: server.url, timeoutMs: 5_000 });

  it("posts to /api/chat without streaming, the schema as format", async () => {
    const result = await provider().generate({
      system: "Extract.",
      prompt: "the session",
      jsonSchema: { name: "stage1", schema: { type: "object", properties: { ok: { type: "boolean" } } } },
      temperature: 0,
      maxOutputTokens: 256,
    });
    expect(result).toEqual({
      text: '{"ok":true}',
      usage: { inputTokens: 61, outputTokens: 13 },
      provider: "ollama",
      model: "qwen2.5:7b",
      warnings: [],
    });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe("/api/chat");
    expect(request.body).toMatchInlineSnapshot(`
      {
        "format": {
          "properties": {
            "ok": {
              "type": "boolean",
            },
          },
          "type": "object",
        },
        "messages": [
          {
            "content": "Extract.",
            "role": "system",
          },
          {
            "content": "the session",
            "role": "user",
          },
        ],
        "model": "qwen2.5:7b",
        "options": {
          "num_predict": 256,
          "temperature": 0,
        },
        "stream": false,
      }
    `);
  });

  it("warns when the answer hit the token limit", async () => {
    server.setHandler(() => json(chat('{"ok":', "length")));
    const result = await provider().generate({ system: "", prompt: "p" });
    expect(result.warnings).toEqual(["ollama: the answer was cut off at the output token limit"]);
  });

  it("reports a missing model as a non-retryable HTTP 404", async () => {
    server.setHandler(() => json({ error: "model 'qwen2.5:7b' not found" }, 404));
    await expect(provider().generate({ system: "", prompt: "p" })).rejects.toMatchObject({
      kind: "http",
      statusCode: 404,
      isRetryable: false,
      message: `ollama: HTTP 404: {"error":"model 'qwen2.5:7b' not found"}`,
    });
  });

  it("lists installed models and is available when /api/tags answers", async () => {
    server.setHandler((request) =>
      request.path === "/api/tags"
        ? json({ models: [{ name: "llama3.2:latest" }, { name: "qwen2.5:7b" }] })
        : undefined,
    );
    expect(await provider().listModels()).toEqual(["llama3.2:latest", "qwen2.5:7b"]);
    expect(await provider().available()).toBe(true);
    expect(server.requests.at(-1)!.method).toBe("GET");
  });

  it("is unavailable when /api/tags does not answer in time", async () => {
    server.setHandler(() => undefined); // never answers
    const started = Date.now();
    expect(await provider().listModels(200)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("ollamaBaseUrlFromHost", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["127.0.0.1", "http://127.0.0.1:11434"],
    ["0.0.0.0:11435", "http://127.0.0.1:11435"],
    [":9999", "http://127.0.0.1:9999"],
    ["http://gpu-box:11434/", "http://gpu-box:11434"],
    ["https://ollama.example.com", "https://ollama.example.com"],
  ])("%s → %s", (host, expected) => {
    expect(ollamaBaseUrlFromHost(host)).toBe(expected);
  });
});
