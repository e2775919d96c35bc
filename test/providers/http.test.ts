import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OllamaEmbeddingProvider } from "../../src/providers/embeddings/ollamaEmbedding.js";
import { OpenAiEmbeddingProvider } from "../../src/providers/embeddings/openaiEmbedding.js";
import { isRetryableStatus, postJson } from "../../src/providers/http.js";
import { AnthropicProvider } from "../../src/providers/llm/anthropic.js";
import { OllamaProvider } from "../../src/providers/llm/ollama.js";
import { OpenAiProvider } from "../../src/providers/llm/openai.js";
import { ProviderError } from "../../src/providers/providerError.js";
import { json, type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";

const KEY = "sk-secret-0123456789abcdef";

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer(() => json({}));
});
afterAll(() => server.close());

async function failure(call: Promise<unknown>): Promise<ProviderError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const post = (options: { url?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}) =>
  postJson({ provider: "p", url: options.url ?? `${server.url}/x`, body: {}, timeoutMs: 5_000, ...options });

describe("the shared HTTP helper", () => {
  it.each([
    [408, true],
    [409, true],
    [425, true],
    [429, true],
    [500, true],
    [503, true],
    [529, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [422, false],
  ])("HTTP %i retryable: %s", async (status, retryable) => {
    expect(isRetryableStatus(status)).toBe(retryable);
    server.setHandler(() => json({ error: "e" }, status));
    expect(await failure(post())).toMatchObject({ kind: "http", statusCode: status, isRetryable: retryable });
  });

  it("reads Retry-After in seconds and as an HTTP date", async () => {
    server.setHandler(() => json({}, 429, { "retry-after": "12" }));
    expect((await failure(post())).retryAfterMs).toBe(12_000);
    server.setHandler(() => json({}, 503, { "retry-after": new Date(Date.now() + 60_000).toUTCString() }));
    const { retryAfterMs } = await failure(post());
    expect(retryAfterMs).toBeGreaterThan(55_000);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it("rejects with the caller's abort reason, not a provider error", async () => {
    server.setHandler(() => undefined);
    const reason = new Error("shutting down");
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 30);
    await expect(post({ signal: controller.signal })).rejects.toBe(reason);
  });

  it("scrubs credential headers a server echoes, with or without their scheme", async () => {
    server.setHandler(() => json({ error: `bad key ${KEY}; header was Bearer ${KEY}` }, 401));
    const error = await failure(post({ headers: { authorization: `Bearer ${KEY}`, "x-api-key": KEY } }));
    expect(JSON.stringify({ message: error.message, body: error.responseBody })).not.toContain(KEY);
    expect(error.message).toContain("[redacted]");
  });

  it("scrubs a key passed in the query string and never quotes it in the URL", async () => {
    server.setHandler(() => json({ error: `unknown key ${KEY}` }, 403));
    const error = await failure(post({ url: `${server.url}/x?key=${KEY}` }));
    expect(JSON.stringify({ message: error.message, body: error.responseBody })).not.toContain(KEY);
    server.setHandler(() => undefined);
    const timeout = await failure(
      postJson({ provider: "p", url: `${server.url}/x?key=${KEY}`, body: {}, timeoutMs: 100 }),
    );
    expect(timeout.message).toMatch(/\(POST http:\/\/127\.0\.0\.1:\d+\/x\)$/);
  });

  it("refuses a URL with user-info as a config error that does not repeat the password", async () => {
    const error = await failure(post({ url: "http://user:hunter2@127.0.0.1:9/x" }));
    expect(error).toMatchObject({ kind: "config", isRetryable: false });
    expect(error.message).not.toContain("hunter2");
  });
});

/** Every HTTP provider, LLM and embedding, fails through the shared helper with the same fields. */
const providers: Array<[string, (url: string) => (signal?: AbortSignal) => Promise<unknown>]> = [
  [
    "openai",
    (url) => (signal) =>
      new OpenAiProvider({ baseUrl: url, apiKey: KEY }).generate({ system: "s", prompt: "p", signal }),
  ],
  [
    "anthropic",
    (url) => (signal) =>
      new AnthropicProvider({ baseUrl: url, apiKey: KEY }).generate({ system: "s", prompt: "p", signal }),
  ],
  ["ollama", (url) => (signal) => new OllamaProvider({ baseUrl: url }).generate({ system: "s", prompt: "p", signal })],
  [
    "openai-embeddings",
    (url) => (signal) =>
      new OpenAiEmbeddingProvider({ baseUrl: url, model: "m", dimensions: 2, apiKey: KEY }).embed(["a"], { signal }),
  ],
  [
    "ollama-embeddings",
    (url) => (signal) =>
      new OllamaEmbeddingProvider({ baseUrl: url, model: "m", dimensions: 2 }).embed(["a"], { signal }),
  ],
];

describe.each(providers)("%s uses the shared helper", (name, create) => {
  it("425 Too Early is retryable after Retry-After, and an echoed key is scrubbed", async () => {
    server.setHandler(() => json({ error: `too early for ${KEY}` }, 425, { "retry-after": "3" }));
    const error = await failure(create(server.url)());
    expect(error).toMatchObject({
      provider: name,
      kind: "http",
      statusCode: 425,
      isRetryable: true,
      retryAfterMs: 3000,
    });
    // Ollama sends no key, so there is none to leak.
    if (!name.startsWith("ollama")) {
      expect(JSON.stringify({ message: error.message, body: error.responseBody })).not.toContain(KEY);
    }
  });

  it("a 2xx answer that is not JSON is malformed and retryable", async () => {
    server.setHandler(() => ({ status: 200, body: "<html>gateway hiccup</html>" }));
    expect(await failure(create(server.url)())).toMatchObject({ kind: "malformed", isRetryable: true });
  });

  it("the caller's abort rejects with the caller's reason", async () => {
    const reason = new Error("stop");
    await expect(create(server.url)(AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
