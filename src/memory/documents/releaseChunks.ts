import { DOCUMENT_CHUNK_TYPE } from "../../store/contracts/memories.js";
import type { MemoryStore } from "../memoryStore.js";
import { citesDocument } from "./chunkCitation.js";
import { reciteChunk } from "./reciteChunk.js";

/**
 * What becomes of the chunks a document lets go of (it is forgotten, or its new text no longer holds
 * them). A chunk's text is stored once per scope, so two documents with the same passage share one
 * memory, cited under the document that brought it first. A chunk no other live document holds is
 * forgotten (a tombstone: its history says why, `memory restore` brings it back); one another live
 * document holds stays, and when it was cited under this document it is cited under that one from now
 * on (recall's ref and the memory's why, a `moved` event in its history), so no live chunk points at a
 * document that let it go. A
 * memory that is not a chunk (the passage matched something remembered) is left as it is.
 * Call inside a write transaction. Returns how many were forgotten and the ids another document keeps.
 */
export function releaseChunks(
  store: MemoryStore,
  documentId: number,
  memoryIds: Iterable<number>,
  options: { who?: string; reason: string },
): { forgotten: number; kept: number[] } {
  const documents = store.storage.documents;
  let forgotten = 0;
  const kept: number[] = [];
  for (const memoryId of new Set(memoryIds)) {
    const memory = store.get(memoryId);
    if (!memory || memory.deletedAt !== null || memory.type !== DOCUMENT_CHUNK_TYPE) continue;
    const holder = documents.holderOf(memoryId, documentId);
    if (holder) {
      kept.push(memoryId);
      if (citesDocument(memory.ref, documentId))
        reciteChunk(store, memoryId, {
          from: documentId,
          to: holder,
          why: `document #${documentId} let it go (${options.reason})`,
          ...(options.who ? { who: options.who } : {}),
        });
    } else if (store.forget(memoryId, { ...(options.who ? { who: options.who } : {}), reason: options.reason })) {
      forgotten++;
    }
  }
  return { forgotten, kept };
}
