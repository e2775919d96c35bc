import { afterEach, describe, expect, it } from "vitest";
import { OllamaEmbeddingProvider } from "../../src/providers/embeddings/ollamaEmbedding.js";
import { OpenAiEmbeddingProvider } from "../../src/providers/embeddings/openaiEmbedding.js";
import { ProviderError } from "../../src/providers/llm/types.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("HTTP embedding providers", () => {
  it("speaks the OpenAI /v1/embeddings format, reorders by index and normalizes", async () => {
    server = await startLoopbackServer(() => ({
      body: {
        object: "list",
        data: [
          { object: "embedding", index: 1, embedding: [0, 2] },
          { object: "embedding", index: 0, embedding: [3, 4] },
        ],
        model: "m",
      },
    }));
    const provider = new OpenAiEmbeddingProvider({
      baseUrl: `${server.url}/v1`,
      model: "text-embedding-3-small",
      dimensions: 2,
      apiKey: "k",
    });
    const vectors = await provider.embed(["a", "b"]);
    expect(vectors.map((v) => [...v])).toEqual([
      [0.6000000238418579, 0.800000011920929],
      [0, 1],
    ]);
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/embeddings",
      body: { model: "text-embedding-3-small", input: ["a", "b"], dimensions: 2, encoding_format: "float" },
    });
    expect(server.requests[0]?.headers.authorization).toBe("Bearer k");
  });

  it("speaks Ollama's /api/embed format", async () => {
    server = await startLoopbackServer((req) =>
      req.path === "/api/tags"
        ? { body: { models: [] } }
        : { body: { model: "nomic-embed-text", embeddings: [[1, 0, 0]] } },
    );
    const provider = new OllamaEmbeddingProvider({ baseUrl: server.url, model: "nomic-embed-text", dimensions: 3 });
    expect((await provider.embed(["hello"])).map((v) => [...v])).toEqual([[1, 0, 0]]);
    expect(server.requests[0]).toMatchObject({
      path: "/api/embed",
      body: { model: "nomic-embed-text", input: ["hello"] },
    });
    expect(await provider.available()).toBe(true);
  });

  it("turns HTTP failures into typed, retryable errors", async () => {
    server = await startLoopbackServer(() => ({ status: 503, body: { error: "loading" } }));
    const provider = new OllamaEmbeddingProvider({ baseUrl: server.url, model: "m", dimensions: 3 });
    const error = await provider.embed(["x"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "http", statusCode: 503, isRetryable: true });
  });
});

describe("embedding provider errors", () => {
  it("never quote the API key a server echoes back", async () => {
    const key = "sk-proj-EchoedBackByTheServer1234567890";
    server = await startLoopbackServer(() => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${key}` } },
    }));
    const provider = new OpenAiEmbeddingProvider({
      baseUrl: `${server.url}/v1`,
      model: "m",
      dimensions: 2,
      apiKey: key,
    });
    const error = await provider.embed(["a"]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain("401");
    expect((error as ProviderError).message).not.toContain(key);
    expect(JSON.stringify((error as ProviderError).responseBody)).not.toContain(key);
  });
});
