import { DOCUMENT_CHUNK_TYPE } from "../../store/contracts/memories.js";
import { withWriteTx } from "../../store/tx.js";
import { CairnError } from "../../util/errors.js";
import type { MemoryStore } from "../memoryStore.js";

/**
 * Forgets a document: each of its chunks is tombstoned like a forgotten memory (history kept, `memory
 * restore` brings one back; retention purges them later), except a chunk another live document shares,
 * and the document leaves the list with its stored text dropped. One transaction: all or nothing.
 */
export function forgetDocument(
  store: MemoryStore,
  id: number,
  options: { who?: string; reason?: string } = {},
): { id: number; source: string; forgotten: number } {
  const documents = store.storage.documents;
  const document = documents.get(id);
  if (!document || document.forgottenAt !== null)
    throw new CairnError("memory_not_found", `no document #${id} (cairn documents lists them)`);
  return withWriteTx(store.storage.db, () => {
    let forgotten = 0;
    const reason = options.reason ?? `forgotten with document #${id}`;
    for (const link of documents.chunks(id)) {
      if (link.deleted || link.type !== DOCUMENT_CHUNK_TYPE || documents.linkedElsewhere(link.memoryId, id)) continue;
      if (store.forget(link.memoryId, { ...(options.who ? { who: options.who } : {}), reason })) forgotten++;
    }
    documents.markForgotten(id, store.clock());
    return { id, source: document.source, forgotten };
  });
}
