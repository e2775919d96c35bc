import type { Storage } from "../store/storage.js";
import type { MemoryRecord } from "../store/types/memoryRecord.js";

/**
 * Brings a tombstoned memory back, its vector with it (the one of the model it was embedded with; the
 * embedding tracker refreshes it when that is no longer the configured model), and records why. False
 * when it cannot come back: it is not a tombstone, or a live twin holds its text. Call inside a write
 * transaction.
 */
export function reviveMemory(
  storage: Storage,
  record: MemoryRecord,
  event: { who?: string | null; reason?: string | null; now: number },
): boolean {
  const { memories, embeddings, vectors, history } = storage;
  if (!memories.restore(record.id, event.now)) return false;
  const vector = record.embeddingModel
    ? embeddings.getMany([record.contentHash], record.embeddingModel).get(record.contentHash)
    : undefined;
  if (vector) vectors.upsert(record.id, record.scope, vector, false);
  history.add({
    memoryId: record.id,
    event: "restored",
    newContent: record.content,
    who: event.who ?? null,
    reason: event.reason ?? null,
    now: event.now,
  });
  return true;
}
