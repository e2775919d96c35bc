import type { DocumentSourceType } from "../../store/contracts/documents.js";
import { DOCUMENT_INGEST_KIND } from "../../store/queue/jobKinds.js";
import type { Storage } from "../../store/storage.js";
import { withWriteTx } from "../../store/tx.js";

/** A document to ingest: where its text comes from, and the title given with a text. */
export interface DocumentSource {
  sourceType: DocumentSourceType;
  /** The absolute path, the URL, or `text: <title>`, as given (stored redacted). */
  source: string;
  title?: string;
  content?: string;
}

/**
 * Records each source as a document of `scope` (the live one of the same source and scope when there
 * is one, so a new ingest replaces the old version's chunks) and queues its `document_ingest` job, all
 * in one transaction. Returns the documents' ids, in the order given.
 */
export function queueDocuments(
  storage: Storage,
  sources: DocumentSource[],
  by: { scope: string; who: string | null; now: number },
): number[] {
  return withWriteTx(storage.db, () =>
    sources.map((source) => {
      const title = source.title ?? null;
      const rawContent = source.content ?? null;
      const existing = storage.documents.findLive(by.scope, source.source);
      const id =
        existing?.id ??
        storage.documents.create({
          scope: by.scope,
          source: source.source,
          sourceType: source.sourceType,
          title,
          rawContent,
          who: by.who,
          now: by.now,
        });
      if (existing) storage.documents.requeue(id, { title, rawContent }, by.now);
      storage.jobs.enqueue({ kind: DOCUMENT_INGEST_KIND, key: String(id), force: true });
      return id;
    }),
  );
}
