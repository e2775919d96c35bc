import type { Database } from "better-sqlite3";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { MemoryStore } from "../../src/memory/memoryStore.js";
import { createHashedEmbeddingProvider } from "../../src/providers/embeddings/hashedEmbedding.js";
import type { EmbeddingProvider } from "../../src/providers/embeddings/types.js";
import { openDatabase } from "../../src/store/connection.js";

type ConfigInput = Parameters<typeof defaultRecallConfig>[0];

/** A fresh in-memory store per test, hashed embeddings, a clock the test can move. */
export function makeStore(
  options: { config?: ConfigInput; embeddings?: EmbeddingProvider; vectorIndex?: boolean } = {},
): { db: Database; store: MemoryStore; advance: (ms: number) => number } {
  const { db, vecError } = openDatabase(":memory:");
  let now = 1_700_000_000_000;
  const clock = () => now;
  const store = new MemoryStore({
    db,
    embeddings: options.embeddings ?? createHashedEmbeddingProvider({ dimensions: 64 }),
    config: defaultRecallConfig(options.config),
    clock,
    vectorIndex: options.vectorIndex ?? vecError === null,
  });
  return { db, store, advance: (ms: number) => (now += ms) };
}
