import type { MemoryStore } from "../memoryStore.js";
import { type CitedDocument, chunkRef, chunkWhy } from "./chunkCitation.js";

/** A chunk's citation moving to another document: from which one (if it cited one), and why. */
export interface ChunkMove {
  from: number | undefined;
  to: CitedDocument;
  /** Why the document it was cited under gave it up, as the history says it. */
  why: string;
  who?: string | null;
}

/**
 * Cites a chunk under another document (its `ref`, which recall shows, and its `why`) and records the
 * move in the chunk's history: a `moved` event naming both documents, so `memory history` and the UI
 * say why the same passage now comes from another document. Call inside a write transaction.
 */
export function reciteChunk(store: MemoryStore, memoryId: number, move: ChunkMove): void {
  const ref = chunkRef(move.to);
  store.storage.documents.cite(memoryId, { ref, why: chunkWhy(move.to) });
  store.storage.history.add({
    memoryId,
    event: "moved",
    who: move.who ?? null,
    reason: `now cited under ${ref}: ${move.why}`,
    metadata: { ...(move.from === undefined ? {} : { fromDocument: move.from }), toDocument: move.to.id },
    now: store.clock(),
  });
}
