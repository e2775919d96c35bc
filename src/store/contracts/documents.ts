/** Where a document's text comes from: a file read by the CLI, a URL fetched, or a text given over HTTP or MCP. */
export type DocumentSourceType = "file" | "url" | "text";

/**
 * A document's progress (seed 004): queued, then extracting -> chunking -> embedding -> indexing ->
 * done, or failed (the queue retries it); forgotten once `documents forget` tombstoned its chunks.
 */
export type DocumentStatus =
  | "queued"
  | "extracting"
  | "chunking"
  | "embedding"
  | "indexing"
  | "done"
  | "failed"
  | "forgotten";

export interface DocumentRecord {
  id: number;
  scope: string;
  /** The file's absolute path, the URL, or the name given with a text; redacted like every stored text. */
  source: string;
  sourceType: DocumentSourceType;
  title: string | null;
  contentType: string | null;
  status: DocumentStatus;
  /** Why the last ingest failed, while the document keeps its previous chunks. */
  error: string | null;
  /** The chunks it holds (a forgotten one until retention purges it; a purged one no more). */
  chunkCount: number;
  who: string | null;
  createdAt: number;
  updatedAt: number;
  /** When its chunks were last written in full; null until the first ingest finished. */
  ingestedAt: number | null;
  forgottenAt: number | null;
}

/** One chunk of a document: its place in the text and the memory that holds it. */
export interface DocumentChunkLink {
  chunkIndex: number;
  memoryId: number;
  contentHash: string;
  type: string;
  /** The memory was forgotten (by itself, or with another document). */
  deleted: boolean;
}

/** The documents table and the links of their chunks to memories (migration 020). */
export interface DocumentRepo {
  /** The live (not forgotten) document of a source in a scope. */
  findLive(scope: string, source: string): DocumentRecord | undefined;
  get(id: number): DocumentRecord | undefined;
  create(document: {
    scope: string;
    source: string;
    sourceType: DocumentSourceType;
    title: string | null;
    rawContent: string | null;
    who: string | null;
    now: number;
  }): number;
  /** Queues a live document again for a new ingest; a `text` document takes its new text and title. */
  requeue(id: number, given: { title: string | null; rawContent: string | null }, now: number): void;
  /** The text given with a `text` document, redacted when stored. */
  rawContent(id: number): string | null;
  /** Moves the status on; `error` records why it failed (kept until an ingest finishes). */
  setStatus(id: number, status: DocumentStatus, now: number, error?: string): void;
  /** Title and content type learnt while extracting (a page's <title> fills in a missing title). */
  describe(id: number, found: { title: string | null; contentType: string | null }, now: number): void;
  /** Live documents of the scopes (or all), newest first. */
  list(filter: { scopes: string[] | "all"; limit: number }): DocumentRecord[];
  chunks(id: number): DocumentChunkLink[];
  /** Replaces the document's chunk links by `links` and marks it done. Call inside a write transaction. */
  finish(
    id: number,
    result: { links: Array<{ chunkIndex: number; memoryId: number }>; contentHash: string; now: number },
  ): void;
  /** The oldest live document other than `exceptId` that holds the memory as one of its chunks. */
  holderOf(memoryId: number, exceptId: number): { id: number; title: string | null; source: string } | undefined;
  /** Whether the document is live and holds the memory as one of its chunks. */
  holds(id: number, memoryId: number): boolean;
  /** Shows a chunk under another document: its `ref` and `why` (a shared chunk whose document let it go). */
  cite(memoryId: number, citation: { ref: string; why: string }): void;
  /** Drops the document's links to these memories. */
  unlink(id: number, memoryIds: readonly number[]): void;
  /** Deletes a document that never finished an ingest, with its links. */
  remove(id: number): void;
  markForgotten(id: number, now: number): void;
}
