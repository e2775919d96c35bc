import { createHash } from "node:crypto";
import { basename } from "node:path";
import type { WorkersConfig } from "../../config/workersConfig.js";
import { guardText } from "../../redact/guard.js";
import { redactText } from "../../redact/redact.js";
import type { DocumentRecord, DocumentStatus } from "../../store/contracts/documents.js";
import { DOCUMENT_CHUNK_TYPE } from "../../store/contracts/memories.js";
import { withWriteTx } from "../../store/tx.js";
import { addressesAgent } from "../../text/addressesAgent.js";
import type { Clock } from "../../util/clock.js";
import { CairnError, errorMessage } from "../../util/errors.js";
import type { MemoryStore } from "../memoryStore.js";
import { normalizeContent } from "../normalizeContent.js";
import type { RememberInput } from "../types.js";
import { type CitedDocument, chunkRef, chunkWhy, citedDocumentId } from "./chunkCitation.js";
import { chunkText } from "./chunkText.js";
import { fetchUrlContent } from "./fetchUrl.js";
import { readDocumentFile } from "./readDocumentFile.js";
import { reciteChunk } from "./reciteChunk.js";
import { releaseChunks } from "./releaseChunks.js";

export type DocumentsSettings = WorkersConfig["documents"];

/** seed 004: a chunk is worth less than a statement someone made (0.5) when ranked. */
const CHUNK_IMPORTANCE = 0.3;

export interface DocumentIngestDeps {
  store: MemoryStore;
  settings: DocumentsSettings;
  clock: Clock;
}

/** A status a document reached, as it happens. */
export type OnDocumentStatus = (document: { id: number; source: string; status: DocumentStatus }) => void;

/** What one ingest of a document did. */
export interface DocumentOutcome {
  id: number;
  scope: string;
  source: string;
  title: string | null;
  /** done, or failed (the queue retries it), or queued (another process holds its job). */
  status: DocumentStatus;
  /** Every status it went through in this run, in order. */
  transitions: DocumentStatus[];
  /** Its chunks now, and of them: written now, kept from the last ingest (same text), and chunks dropped. */
  chunks: number;
  added: number;
  kept: number;
  removed: number;
  /** Chunks left out because they are worded as instructions to an AI agent. */
  withheld: number;
  warnings?: string[];
  error?: string;
}

/**
 * One document's ingest (the work of its `document_ingest` job): extracting (read the file, fetch the
 * URL, or take the stored text) -> chunking -> embedding -> indexing -> done, each status stored as
 * it is reached (`cairn documents`, GET of the document) and passed to `onStatus`.
 *
 * The whole text is redacted before it is cut, so a secret never straddles two chunks and escapes the
 * patterns. Chunks are deduplicated against the document's own chunks: a chunk whose text the last
 * ingest stored keeps its memory, so ingesting the same text again writes nothing, and an edited file
 * writes only its changed chunks; chunks no longer in the text are forgotten (tombstoned) with the
 * write that replaces them, unless another live document holds them (then cited under it: releaseChunks).
 * Every chunk is a memory of type
 * `document_chunk` written through the one write path (redaction, FTS, vector, scope), all in one
 * transaction with the links and the status `done`: a failure leaves the previous version whole.
 *
 * Bad input (not text, too large, not found, refused by the URL policy) is a `bad_input` CairnError:
 * a document that never finished an ingest is deleted (nothing is left half-written), one that did
 * keeps its previous chunks and records the error. `source` is the source as given, for the run in
 * the process that was given it (the stored one is redacted: a token in a URL's query is not kept).
 */
export async function ingestDocument(
  deps: DocumentIngestDeps,
  id: number,
  options: { onStatus?: OnDocumentStatus; source?: string } = {},
): Promise<DocumentOutcome | undefined> {
  const { store, settings, clock } = deps;
  const documents = store.storage.documents;
  const document = documents.get(id);
  // Forgotten, or deleted after a refused input, since the job was queued: nothing to do.
  if (!document || document.forgottenAt !== null) return undefined;
  const transitions: DocumentStatus[] = [];
  const move = (status: DocumentStatus) => {
    withWriteTx(store.storage.db, () => documents.setStatus(id, status, clock()));
    transitions.push(status);
    options.onStatus?.({ id, source: document.source, status });
  };
  move("extracting");
  let extracted: { title: string | null; text: string; contentType: string | null };
  let chunks: string[];
  try {
    extracted = await extract(document, options.source ?? document.source, settings, () => documents.rawContent(id));
    withWriteTx(store.storage.db, () => documents.describe(id, extracted, clock()));
    move("chunking");
    // Redacted whole, then cut: see above.
    chunks = chunkText(
      guardText(extracted.text),
      settings.chunkSize,
      Math.min(settings.chunkOverlap, settings.chunkSize - 1),
    );
    if (chunks.length === 0) throw new CairnError("bad_input", `${document.source} holds no text`);
  } catch (error) {
    if (CairnError.isInstance(error) && error.code === "bad_input") throw refuse(deps, document, error);
    throw failed(deps, document, error);
  }
  try {
    return await writeChunks(deps, document, { chunks, extracted, transitions, move, ...options });
  } catch (error) {
    throw failed(deps, document, error);
  }
}

/** Embedding, then indexing: the chunks not stored yet are written, the links replaced, the document done. */
async function writeChunks(
  deps: DocumentIngestDeps,
  document: DocumentRecord,
  run: {
    chunks: string[];
    extracted: { title: string | null };
    transitions: DocumentStatus[];
    move: (status: DocumentStatus) => void;
    onStatus?: OnDocumentStatus;
  },
): Promise<DocumentOutcome> {
  const { store } = deps;
  const { id } = document;
  const documents = store.storage.documents;
  const { chunks, extracted, transitions, move } = run;
  const title = documents.get(id)?.title ?? extracted.title;
  const cited = { id, title, source: document.source };
  const previous = documents.chunks(id);
  const knownByHash = new Map(previous.map((link) => [link.contentHash, link.memoryId]));
  const plan = chunks.map((content) => {
    const hash = normalizeContent(guardText(content)).contentHash;
    return { content, hash, known: knownByHash.get(hash), withheld: addressesAgent(content) };
  });
  const fresh = plan.filter((chunk) => chunk.known === undefined && !chunk.withheld);
  move("embedding");
  const inputs: RememberInput[] = fresh.map((chunk) => ({
    content: chunk.content,
    scope: document.scope,
    type: DOCUMENT_CHUNK_TYPE,
    importance: CHUNK_IMPORTANCE,
    ref: chunkRef(cited),
    ...(document.who ? { who: document.who } : {}),
    why: chunkWhy(cited),
  }));
  const staged = await store.stage(inputs, { revise: false });
  move("indexing");
  const warnings = new Set<string>();
  const written = withWriteTx(store.storage.db, () => {
    const links: Array<{ chunkIndex: number; memoryId: number }> = [];
    let added = 0;
    let freshIndex = 0;
    plan.forEach((chunk, chunkIndex) => {
      if (chunk.withheld) return;
      let memoryId = chunk.known;
      if (memoryId === undefined) {
        const outcome = staged.write(freshIndex++);
        for (const warning of outcome.warnings ?? []) warnings.add(warning);
        if (outcome.status === "created") added++;
        memoryId = outcome.id;
      }
      if (memoryId !== undefined) links.push({ chunkIndex, memoryId });
    });
    const kept = new Set(links.map((link) => link.memoryId));
    const dropped = previous.map((link) => link.memoryId).filter((memoryId) => !kept.has(memoryId));
    const { forgotten: removed } = releaseChunks(store, id, dropped, {
      ...(document.who ? { who: document.who } : {}),
      reason: "no longer in the document",
    });
    documents.finish(id, { links, contentHash: contentHashOf(chunks), now: staged.now });
    citeUnclaimed(store, cited, kept, document.who);
    return { links: links.length, added, kept: links.length - added, removed };
  });
  transitions.push("done");
  run.onStatus?.({ id, source: document.source, status: "done" });
  return {
    id,
    scope: document.scope,
    source: document.source,
    title,
    status: "done",
    transitions,
    chunks: written.links,
    added: written.added,
    kept: written.kept,
    removed: written.removed,
    withheld: plan.filter((chunk) => chunk.withheld).length,
    ...(warnings.size > 0 ? { warnings: [...warnings] } : {}),
  };
}

/**
 * Cites under this document each of its chunks whose citation names no live document holding it (a
 * chunk restored by hand after its document was forgotten, then found again in this one), so a live
 * chunk never points at a document that let it go. A chunk another live document holds keeps its
 * citation. Call inside the write transaction, after the links are replaced.
 */
function citeUnclaimed(
  store: MemoryStore,
  document: CitedDocument,
  memoryIds: Iterable<number>,
  who: string | null,
): void {
  const documents = store.storage.documents;
  for (const memoryId of memoryIds) {
    const memory = store.get(memoryId);
    if (!memory || memory.deletedAt !== null || memory.type !== DOCUMENT_CHUNK_TYPE) continue;
    const cited = citedDocumentId(memory.ref);
    if (cited === document.id || (cited !== undefined && documents.holds(cited, memoryId))) continue;
    const why = cited === undefined ? "it cited no document" : `document #${cited} no longer holds it`;
    reciteChunk(store, memoryId, { from: cited, to: document, why, who });
  }
}

/** The document's text, title and media type, from where its source says. */
async function extract(
  document: DocumentRecord,
  source: string,
  settings: DocumentsSettings,
  rawContent: () => string | null,
): Promise<{ title: string | null; text: string; contentType: string | null }> {
  if (document.sourceType === "url") {
    const page = await fetchUrlContent(source, {
      timeoutMs: settings.fetchTimeoutMs,
      maxBytes: settings.maxContentBytes,
      allowPrivateAddresses: settings.allowPrivateAddresses,
    });
    return { title: page.title, text: page.text, contentType: page.contentType };
  }
  if (document.sourceType === "file") {
    const file = readDocumentFile(source, settings.maxContentBytes);
    return { title: file.title ?? basename(source), text: file.text, contentType: null };
  }
  const raw = rawContent();
  if (raw === null) throw new CairnError("bad_input", `document #${document.id} has no text to ingest`);
  return { title: document.title, text: raw, contentType: "text/plain" };
}

/**
 * Turns an extraction failure into the one error the caller sees, and leaves the store as it was: a
 * document never ingested before is deleted; one that was keeps its chunks and records the error.
 */
function refuse(deps: DocumentIngestDeps, document: DocumentRecord, error: unknown): Error {
  const { store, clock } = deps;
  const documents = store.storage.documents;
  const why = errorMessage(error).split("\n")[0] ?? "error";
  const firstTime = document.ingestedAt === null;
  withWriteTx(store.storage.db, () => {
    if (firstTime) documents.remove(document.id);
    else documents.setStatus(document.id, "done", clock(), why);
  });
  const kept = firstTime ? "nothing was stored" : `the version ingested before is kept (document #${document.id})`;
  const message = why.includes(document.source) ? why : `${document.source}: ${why}`;
  // The source stored is redacted already; the reason may quote the source as given (a path, a URL).
  return new CairnError("bad_input", redactText(`ingest ${message}; ${kept}`));
}

/**
 * A failure that is not the input's (the store, a bug): the document is marked failed with the error
 * and the error goes on to the queue, which retries the job with backoff (`cairn documents` shows it).
 */
function failed(deps: DocumentIngestDeps, document: DocumentRecord, error: unknown): unknown {
  const why = errorMessage(error).split("\n")[0] ?? "error";
  try {
    withWriteTx(deps.store.storage.db, () =>
      deps.store.storage.documents.setStatus(document.id, "failed", deps.clock(), why),
    );
  } catch {
    // The store itself refused (a full disk): the queue's own record of the failure says it.
  }
  return error;
}

function contentHashOf(chunks: string[]): string {
  return createHash("sha256").update(chunks.join("\u0000")).digest("hex");
}
