import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHashedEmbeddingProvider, hashedEmbedding } from "../../src/providers/embeddings/hashedEmbedding.js";
import { OllamaEmbeddingProvider } from "../../src/providers/embeddings/ollamaEmbedding.js";
import { OpenAiEmbeddingProvider } from "../../src/providers/embeddings/openaiEmbedding.js";
import { TransformersEmbeddingProvider } from "../../src/providers/embeddings/transformersEmbedding.js";
import type { EmbeddingProvider } from "../../src/providers/embeddings/types.js";
import { createWordvecEmbeddingProvider } from "../../src/providers/embeddings/wordvec/wordvecEmbedding.js";
import { json, type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { tempDir } from "../helpers/tempDir.js";
import { modelDirectory, stubTransformersLibrary } from "../helpers/transformersStub.js";
import { makeStore } from "../memory/storeFixture.js";

/**
 * The embedding contract (src/providers/embeddings/types.ts) every provider keeps: recall and the
 * memory store rely on it. Remote providers run against a loopback server speaking their real wire
 * format, transformers against a stub of the library's pipeline API (the package is optional and not
 * installed here: docs/embeddings.md).
 */
interface Subject {
  provider: EmbeddingProvider;
  /** The same provider with its backend down or its files missing. */
  broken: EmbeddingProvider;
  /** A credential the provider holds, never to be quoted in an error. */
  secret?: string;
  /** What the backend was sent, for providers whose texts leave the machine. */
  sentTexts?: () => string[];
  close(): Promise<void> | void;
}

const DIMENSIONS = 64;
const KEY = "sk-proj-ContractKeyNeverQuoted1234567890";

/** A server-side model: deterministic vectors of any text, not unit length (the provider normalizes). */
const serverVector = (text: string) => [...hashedEmbedding(text, DIMENSIONS)].map((x) => 3 * x);

function inputsOf(server: LoopbackServer): string[] {
  return server.requests.flatMap((r) => ((r.body as { input?: string[] } | undefined)?.input ?? []) as string[]);
}

async function openaiSubject(): Promise<Subject> {
  const server = await startLoopbackServer((req) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) return json({ error: { message: "bad key" } }, 401);
    const input = (req.body as { input: string[] }).input;
    // The API may answer in any order: each item carries its index.
    const data = input.map((text, index) => ({ object: "embedding", index, embedding: serverVector(text) }));
    return json({ object: "list", data: data.reverse(), model: "m", usage: { prompt_tokens: 1, total_tokens: 1 } });
  });
  const down = await startLoopbackServer(() =>
    json({ error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error" } }, 401),
  );
  const options = { model: "text-embedding-3-small", dimensions: DIMENSIONS, apiKey: KEY };
  return {
    provider: new OpenAiEmbeddingProvider({ ...options, baseUrl: server.url }),
    broken: new OpenAiEmbeddingProvider({ ...options, baseUrl: down.url }),
    secret: KEY,
    sentTexts: () => inputsOf(server),
    close: async () => {
      await server.close();
      await down.close();
    },
  };
}

async function ollamaSubject(): Promise<Subject> {
  const server = await startLoopbackServer((req) => {
    if (req.path === "/api/tags") return json({ models: [{ name: "nomic-embed-text:latest" }] });
    const input = (req.body as { input: string[] }).input;
    return json({ model: "nomic-embed-text", embeddings: input.map(serverVector), total_duration: 1 });
  });
  const down = await startLoopbackServer(() => json({ error: "model runner has unexpectedly stopped" }, 500));
  const options = { model: "nomic-embed-text", dimensions: DIMENSIONS };
  return {
    provider: new OllamaEmbeddingProvider({ ...options, baseUrl: server.url }),
    broken: new OllamaEmbeddingProvider({ ...options, baseUrl: down.url }),
    sentTexts: () => inputsOf(server),
    close: async () => {
      await server.close();
      await down.close();
    },
  };
}

async function transformersSubject(): Promise<Subject> {
  const modelsDir = tempDir();
  modelDirectory(modelsDir, "acme/mini-embed");
  const options = { modelsDir, dimensions: DIMENSIONS, dtype: "q8" as const, batchSize: 3 };
  return {
    provider: new TransformersEmbeddingProvider({
      ...options,
      model: "acme/mini-embed",
      loadLibrary: async () => stubTransformersLibrary(DIMENSIONS),
    }),
    broken: new TransformersEmbeddingProvider({
      ...options,
      model: "acme/not-downloaded",
      loadLibrary: async () => stubTransformersLibrary(DIMENSIONS),
    }),
    close: () => {},
  };
}

const subjects: Array<[string, () => Promise<Subject>]> = [
  [
    "hashed",
    async () => {
      const provider = createHashedEmbeddingProvider({ dimensions: DIMENSIONS });
      // The sketch needs nothing: it cannot be down. Its broken twin is a provider that is.
      return {
        provider,
        broken: createWordvecEmbeddingProvider({ dimensions: 384, path: "/nonexistent" }),
        close() {},
      };
    },
  ],
  [
    "wordvec",
    async () => ({
      provider: createWordvecEmbeddingProvider({ dimensions: 384 }),
      broken: createWordvecEmbeddingProvider({ dimensions: 384, path: join(tempDir(), "none.bin") }),
      close() {},
    }),
  ],
  ["openai", openaiSubject],
  ["ollama", ollamaSubject],
  ["transformers", transformersSubject],
];

const TEXTS = [
  "Unit tests run with vitest.",
  "Deploys go out through the staging cluster first.",
  "The database is migrated with alembic.",
  "Use pnpm, not npm.",
  "Lint with biome before committing.",
  "The API listens on port 8080.",
  "Releases are tagged from main.",
];

const norm = (v: Float32Array) => Math.hypot(...v);

describe.each(subjects)("EmbeddingProvider contract: %s", (name, createSubject) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await createSubject();
  });
  afterAll(() => subject.close());

  it("names itself, its vector space and its width", () => {
    expect(subject.provider.name).toBe(name);
    expect(subject.provider.model).toMatch(/\S/);
    expect(subject.provider.dimensions).toBeGreaterThan(0);
  });

  it("gives one finite unit vector of the declared width per text", async () => {
    const vectors = await subject.provider.embed(TEXTS);
    expect(vectors).toHaveLength(TEXTS.length);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(subject.provider.dimensions);
      expect(vector.every(Number.isFinite)).toBe(true);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
  });

  it("keeps the texts' order in a batch: each vector is the one the text gets alone", async () => {
    const batch = await subject.provider.embed(TEXTS);
    for (const [i, text] of TEXTS.entries()) {
      const [alone] = await subject.provider.embed([text]);
      expect([...batch[i]!].map((x) => x.toFixed(5))).toEqual([...alone!].map((x) => x.toFixed(5)));
    }
    const [first, second] = batch;
    expect([...first!]).not.toEqual([...second!]);
  });

  it("answers an empty list with an empty list", async () => {
    await expect(subject.provider.embed([])).resolves.toEqual([]);
  });

  it("says it is available when it can embed", async () => {
    await expect(subject.provider.available()).resolves.toBe(true);
  });

  it("when it cannot embed: available() is false, embed() fails with one line naming the provider, no key quoted", async () => {
    await expect(subject.broken.available()).resolves.toBe(false);
    const error = await subject.broken.embed(["a text"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    expect(message.startsWith(subject.broken.name)).toBe(true);
    if (subject.secret) expect(JSON.stringify({ message, ...(error as object) })).not.toContain(subject.secret);
  });

  it("never throws into recall: memories are kept and found by their words while it is down", async () => {
    const { store } = makeStore({ embeddings: subject.broken });
    const written = await store.remember({ content: "Deploys go out through the staging cluster first.", scope: "p" });
    expect(written.status).toBe("created");
    const { results, warnings } = await store.recall({ query: "staging deploys", scopes: ["p"], k: 5 });
    expect(results.map((r) => r.id)).toEqual([written.id]);
    expect(warnings?.join(" ")).toMatch(/vector leg skipped/);
    if (subject.secret) expect(JSON.stringify(warnings)).not.toContain(subject.secret);
  });

  it("sends a secret in a text only redacted, when texts leave the machine", async () => {
    if (!subject.sentTexts) return;
    const token = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";
    await subject.provider.embed([`push with ${token}`]);
    expect(subject.sentTexts().join(" ")).not.toContain(token);
  });
});
