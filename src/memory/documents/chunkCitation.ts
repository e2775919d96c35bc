/** A document as its chunks cite it. */
export interface CitedDocument {
  id: number;
  title: string | null;
  source: string;
}

/** What recall shows with each chunk (its `ref`): which document it comes from. */
export function chunkRef(document: CitedDocument): string {
  const label = `document #${document.id}${document.title ? ` "${document.title}"` : ""} (${document.source})`;
  return label.length <= 1000 ? label : `${label.slice(0, 999)}\u2026`;
}

/** A chunk's `why`: where it was read from. */
export function chunkWhy(document: CitedDocument): string {
  return `ingested from ${document.source}`;
}

/** Whether a chunk's `ref` cites the document `id` (a title or source that changed since included). */
export function citesDocument(ref: string | null, id: number): boolean {
  return ref !== null && (ref === `document #${id}` || ref.startsWith(`document #${id} `));
}

/** The document a chunk's `ref` cites, if it cites one. */
export function citedDocumentId(ref: string | null): number | undefined {
  const match = ref === null ? null : /^document #(\d+)(?: |$)/.exec(ref);
  return match ? Number(match[1]) : undefined;
}
