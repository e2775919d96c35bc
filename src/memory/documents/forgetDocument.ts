import { withWriteTx } from "../../store/tx.js";
import { CairnError } from "../../util/errors.js";
import type { MemoryStore } from "../memoryStore.js";
import { releaseChunks } from "./releaseChunks.js";

/** What `documents forget` did: chunks tombstoned, and chunks kept because another document holds them. */
export interface ForgetDocumentResult {
  id: number;
  source: string;
  forgotten: number;
  kept: number;
}

/**
 * Forgets a document: what only it holds goes (each chunk tombstoned like a forgotten memory: history
 * kept, `memory restore` brings one back, retention purges it later); a chunk another live document
 * holds stays, cited under that document only (releaseChunks), and the forgotten document lets go of
 * it. The document leaves the list with its stored text dropped. One transaction: all or nothing.
 */
export function forgetDocument(
  store: MemoryStore,
  id: number,
  options: { who?: string; reason?: string } = {},
): ForgetDocumentResult {
  const documents = store.storage.documents;
  const document = documents.get(id);
  if (!document || document.forgottenAt !== null)
    throw new CairnError("memory_not_found", `no document #${id} (cairn documents lists them)`);
  return withWriteTx(store.storage.db, () => {
    const released = releaseChunks(
      store,
      id,
      documents.chunks(id).map((link) => link.memoryId),
      { ...(options.who ? { who: options.who } : {}), reason: options.reason ?? `forgotten with document #${id}` },
    );
    documents.unlink(id, released.kept);
    documents.markForgotten(id, store.clock());
    return { id, source: document.source, forgotten: released.forgotten, kept: released.kept.length };
  });
}
