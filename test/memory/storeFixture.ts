import type { Database } from "better-sqlite3";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { MemoryStore } from "../../src/memory/memoryStore.js";
import { createHashedEmbeddingProvider } from "../../src/providers/embeddings/hashedEmbedding.js";
import type { EmbeddingProvider } from "../../src/providers/embeddings/types.js";
import { createRecall } from "../../src/recall/createRecall.js";
import { Storage } from "../../src/store/storage.js";

type ConfigInput = Parameters<typeof defaultRecallConfig>[0];

/** A fresh in-memory store per test, hashed embeddings, a clock the test can move. */
export function makeStore(
  options: { config?: ConfigInput; embeddings?: EmbeddingProvider; vectorIndex?: boolean } = {},
): { db: Database; store: MemoryStore; advance: (ms: number) => number } {
  const embeddings = options.embeddings ?? createHashedEmbeddingProvider({ dimensions: 64 });
  const storage = Storage.open(":memory:", {
    dimensions: embeddings.dimensions,
    ...(options.vectorIndex === undefined ? {} : { vectorIndex: options.vectorIndex }),
  });
  let now = 1_700_000_000_000;
  const clock = () => now;
  const config = defaultRecallConfig(options.config);
  const recall = createRecall({ storage, provider: embeddings, config, clock });
  const store = new MemoryStore({ storage, embeddings, config, clock, recall });
  return { db: storage.db, store, advance: (ms: number) => (now += ms) };
}
