import type { RecallConfig } from "../config/recallConfig.js";
import type { EmbeddingProvider } from "../providers/embeddings/types.js";
import type { ReviewResolution } from "../store/contracts/reviews.js";
import type { Storage } from "../store/storage.js";
import { withWriteTx } from "../store/tx.js";
import { shippedLexicon } from "../text/lexicon/concepts.js";
import { type Clock, systemClock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import { assertWritable } from "./assertWritable.js";
import { linkEntities } from "./entityLinker.js";
import { reviseJobFor, reviseJobsFor } from "./lifecycle/reviseJobFor.js";
import { adoptAsUsers, isAgentWritten, USER_AUTHOR } from "./memoryAuthor.js";
import { type PreparedMemory, prepareRemember } from "./prepareRemember.js";
import { reviveMemory } from "./reviveMemory.js";
import { SEARCH_TERMS_CHARS } from "./searchTerms.js";
import type {
  HistoryEvent,
  MemoryRecord,
  RecallRequest,
  RecallResponse,
  RememberInput,
  RememberOutcome,
} from "./types.js";

/** Recall as composed by src/recall/createRecall.ts: the memory service forwards to it, never builds it. */
export type RecallFn = (request: RecallRequest) => Promise<RecallResponse>;

export interface MemoryStoreOptions {
  storage: Storage;
  embeddings: EmbeddingProvider;
  /** The `recall` section of the configuration (the write path reads `conceptIndex`). */
  config: RecallConfig;
  clock?: Clock;
  /** The composed recall (createRecall); without it `recall` fails with a clear error. */
  recall?: RecallFn;
  /** pipeline.mutationsFrozen: remember, forget, supersede and restore refuse to run. */
  frozen?: boolean;
}

/** Texts per embedding call on the write path. */
const EMBED_BATCH = 256;

/**
 * The memory service over Storage: remember, forget, get, history, hints. It owns no repositories.
 * Writes are raw-first: vectors are computed before the write transaction and a provider failure
 * never loses a memory (the outcome carries a warning; the embedding tracker fills the vector in later).
 */
export class MemoryStore {
  readonly storage: Storage;
  /** The time source of every write (the revise job stamps its review rows with it too). */
  readonly clock: Clock;

  constructor(private readonly options: MemoryStoreOptions) {
    this.storage = options.storage;
    this.clock = options.clock ?? systemClock;
  }

  get provider(): EmbeddingProvider {
    return this.options.embeddings;
  }

  async remember(input: RememberInput): Promise<RememberOutcome>;
  async remember(input: RememberInput[]): Promise<RememberOutcome[]>;
  async remember(input: RememberInput | RememberInput[]): Promise<RememberOutcome | RememberOutcome[]> {
    const inputs = Array.isArray(input) ? input : [input];
    const staged = await this.stage(inputs);
    const outcomes = withWriteTx(this.storage.db, () => staged.writeAll());
    this.storeTranscripts(inputs, staged.now);
    return Array.isArray(input) ? outcomes : outcomes[0]!;
  }

  /**
   * The first half of `remember` (transcripts aside): prepares and embeds the inputs outside any
   * transaction. `write(i)` then stores input i as `remember` would, synchronously, so that a caller
   * can store them together with its own writes in one transaction (`withWriteTx`) of its own.
   * `revise: false` queues no revise job for `write`: a document's chunks are passages of a text, not
   * statements that replace the memories of their scope (or one another).
   */
  async stage(inputs: RememberInput[], options: { revise?: boolean } = {}): Promise<StagedMemories> {
    assertWritable(this.options.frozen);
    const now = this.clock();
    const { depth } = this.options.config.conceptIndex;
    const concepts = depth > 0 ? { lexicon: shippedLexicon(), depth } : undefined;
    const prepared = inputs.map((i) => prepareRemember(i, now, concepts));
    const embedded = await this.embedOutsideTx(prepared.filter((p) => !p.skip).map((p) => p.row.content));
    return {
      now,
      write: (index) => this.writeOne(prepared[index]!, embedded, now, options.revise === false ? [] : undefined),
      writeAll: () => {
        const queued: number[] = [];
        const outcomes = prepared.map((p) => this.writeOne(p, embedded, now, queued));
        this.storage.jobs.enqueueMany(reviseJobsFor(queued));
        return outcomes;
      },
    };
  }

  /**
   * Keeps the transcripts given with the memories, in a write of their own after the memories': a
   * transcript is evidence beside them, and a large one never holds up their write. One per session key,
   * the first given kept.
   */
  private storeTranscripts(inputs: RememberInput[], now: number): void {
    const given = inputs.filter((i) => i.transcript !== undefined && i.transcript.length > 0);
    if (given.length === 0) return;
    withWriteTx(this.storage.db, () => {
      for (const input of given) {
        const sessionKey = input.sessionKey ?? input.provenance?.sessionId;
        if (sessionKey === undefined) continue;
        this.storage.transcripts.store({
          sessionKey,
          content: input.transcript as string,
          project: input.project ?? input.scope ?? null,
          now,
        });
      }
    });
  }

  /**
   * Embeds distinct texts; on failure keeps what it has and says why. Raw first: the memories are
   * stored without vectors, their outcomes carry the warning, and the embedding tracker retries later.
   */
  private async embedOutsideTx(texts: string[]): Promise<Embedded> {
    const vectors = new Map<string, Float32Array>();
    const distinct = [...new Set(texts)];
    try {
      for (let i = 0; i < distinct.length; i += EMBED_BATCH) {
        const batch = distinct.slice(i, i + EMBED_BATCH);
        const embedded = await this.options.embeddings.embed(batch);
        batch.forEach((text, j) => {
          const vector = embedded[j];
          if (vector) vectors.set(text, vector);
        });
      }
      return { vectors };
    } catch (error) {
      const warning = `stored without a vector (the embedding provider failed: ${errorMessage(error)}); it is added later`;
      return { vectors, warning };
    }
  }

  /**
   * Stores one prepared memory. Its revise job is enqueued here, or, given `queued`, its id is added
   * there for the caller to enqueue in one job with the rest of its batch.
   */
  private writeOne(p: PreparedMemory, embedded: Embedded, now: number, queued?: number[]): RememberOutcome {
    const { row } = p;
    if (p.skip) return { status: "skipped", contentHash: row.contentHash, reason: p.skip };
    const { memories, history, embeddings, vectors, graph } = this.storage;
    const vector = embedded.vectors.get(row.content);
    const id = memories.insert({ ...row, embeddingModel: vector ? this.provider.model : null });
    if (id === undefined) {
      const existing = memories.findLiveByHash(row.scope, row.contentHash);
      // The same statement remembered again may bring words to be found by that the first did not.
      if (existing !== undefined && row.searchTerms)
        memories.addSearchTerms(existing, row.searchTerms, SEARCH_TERMS_CHARS);
      // The user stating what an agent stored makes it the user's, as `cairn memory confirm` does.
      const stored = existing === undefined || row.who !== USER_AUTHOR ? undefined : memories.get(existing);
      if (stored && isAgentWritten(stored.who))
        adoptAsUsers(this.storage, stored, { now, reason: "remembered by the user as well" });
      return { status: "deduped", contentHash: row.contentHash, ...(existing === undefined ? {} : { id: existing }) };
    }
    history.add({ memoryId: id, event: "created", newContent: row.content, who: row.who, reason: row.why, now });
    // Raw first: the memory is stored now; its decisions (supersession) are derived by this job.
    if (queued) queued.push(id);
    else this.storage.jobs.enqueue(reviseJobFor([id]));
    if (vector) {
      embeddings.upsert(row.contentHash, this.provider.model, vector, now);
      vectors.upsert(id, row.scope, vector, false);
    }
    for (const entity of linkEntities(row.content)) {
      const entityId = graph.upsertEntity(entity.name, entity.entityType, now);
      graph.addMention(id, entityId, entity.name, entity.confidence, p.decision ? "constraint" : "attribute");
    }
    const warnings = vector || embedded.warning === undefined ? {} : { warnings: [embedded.warning] };
    return { status: "created", id, contentHash: row.contentHash, ...warnings };
  }

  /** Recall as composed by createRecall (src/recall/createRecall.ts). */
  recall(request: RecallRequest): Promise<RecallResponse> {
    if (!this.options.recall) throw new Error("recall is not wired into this memory store (see createRecall)");
    return this.options.recall(request);
  }

  get(id: number): MemoryRecord | undefined {
    return this.storage.memories.get(id);
  }

  /** Tombstones a memory (never a hard delete) and records why. */
  forget(id: number, options: { who?: string; reason?: string } = {}): boolean {
    return this.retire(id, options, {
      event: "deleted",
      resolution: "forgotten",
      tombstone: (now) => this.storage.memories.tombstone(id, now),
    });
  }

  /**
   * Marks `oldId` as replaced by `newId`: a tombstone that names its successor, out of recall and the
   * workspaces, kept in the table and the history (`recall --include-superseded` shows it).
   */
  supersede(oldId: number, newId: number, options: { who?: string; reason?: string } = {}): boolean {
    if (oldId === newId) return false;
    return this.retire(oldId, options, {
      event: "superseded",
      resolution: "superseded",
      metadata: { supersededBy: newId },
      tombstone: (now) => this.storage.memories.supersede(oldId, newId, now),
    });
  }

  /**
   * Takes a live memory out of recall (`tombstone` marks the row), its vector and its open review
   * flags with it (a person has nothing left to decide about a memory that is gone), and records why.
   */
  private retire(
    id: number,
    options: { who?: string; reason?: string },
    how: {
      event: string;
      resolution: ReviewResolution;
      metadata?: Record<string, unknown>;
      tombstone: (now: number) => boolean;
    },
  ): boolean {
    assertWritable(this.options.frozen);
    const now = this.clock();
    return withWriteTx(this.storage.db, () => {
      const record = this.storage.memories.get(id);
      if (!record || record.deletedAt !== null || !how.tombstone(now)) return false;
      this.afterTombstone(record, now, options, how);
      return true;
    });
  }

  /**
   * What follows a tombstone, inside its transaction: the vector leaves, the memory's open flags are
   * resolved, and the history records why (and, for a replacement, the new text).
   */
  private afterTombstone(
    record: MemoryRecord,
    now: number,
    options: { who?: string; reason?: string },
    how: { event: string; resolution: ReviewResolution; metadata?: Record<string, unknown>; newContent?: string },
  ): void {
    this.storage.vectors.remove(record.id);
    this.storage.reviews.resolveAbout(record.id, how.resolution, now);
    this.storage.history.add({
      memoryId: record.id,
      event: how.event,
      oldContent: record.content,
      ...(how.newContent === undefined ? {} : { newContent: how.newContent }),
      who: options.who ?? null,
      reason: options.reason ?? null,
      ...(how.metadata ? { metadata: how.metadata } : {}),
      now,
    });
  }

  /**
   * Stores `input` as a new memory in the scope of the live memory `oldId` and marks `oldId` as replaced
   * by it: an edit, or a flagged fact accepted. The text is prepared like every remember (guarded,
   * normalized). The old memory's slot is freed first, so a change of type alone is a replacement too;
   * when another live memory of the scope already says the new text, that one becomes the successor.
   */
  async replace(
    oldId: number,
    input: RememberInput,
    options: { who?: string; reason?: string } = {},
  ): Promise<ReplaceOutcome> {
    assertWritable(this.options.frozen);
    const now = this.clock();
    const old = this.storage.memories.get(oldId);
    if (!old || old.deletedAt !== null) return { status: "not_live" };
    const { depth } = this.options.config.conceptIndex;
    const concepts = depth > 0 ? { lexicon: shippedLexicon(), depth } : undefined;
    // The replacement is the changer's statement, in the old memory's place.
    const where = { scope: old.scope, ...(old.project === null ? {} : { project: old.project }) };
    const by = { ...(options.who ? { who: options.who } : {}), ...(options.reason ? { why: options.reason } : {}) };
    const prepared = prepareRemember({ ...input, ...where, ...by }, now, concepts);
    if (prepared.skip) return { status: "skipped", reason: prepared.skip };
    if (!saysSomething(prepared.row.content)) return { status: "skipped", reason: "only_redacted_text" };
    if (prepared.row.contentHash === old.contentHash && prepared.row.type === old.type)
      return { status: "skipped", reason: "unchanged" };
    const embedded = await this.embedOutsideTx([prepared.row.content]);
    const { memories } = this.storage;
    return withWriteTx(this.storage.db, () => {
      if (!memories.tombstone(oldId, now)) return { status: "not_live" };
      const written = this.writeOne(prepared, embedded, now);
      const successor = written.id ?? memories.findLiveByHash(old.scope, prepared.row.contentHash);
      if (successor === undefined) throw new Error(`the replacement of memory ${oldId} was not stored`);
      memories.nameSuccessor(oldId, successor, now);
      this.afterTombstone(old, now, options, {
        event: "superseded",
        resolution: "superseded",
        metadata: { supersededBy: successor },
        newContent: prepared.row.content,
      });
      return {
        status: "replaced",
        id: successor,
        deduped: written.status === "deduped",
        ...(written.warnings ? { warnings: written.warnings } : {}),
      };
    });
  }

  /** Brings back a forgotten or superseded memory, vector included; false when it cannot come back. */
  restore(id: number, options: { who?: string; reason?: string } = {}): boolean {
    assertWritable(this.options.frozen);
    const now = this.clock();
    return withWriteTx(this.storage.db, () => {
      const record = this.storage.memories.get(id);
      return record !== undefined && reviveMemory(this.storage, record, { ...options, now });
    });
  }

  historyOf(id: number): HistoryEvent[] {
    return this.storage.history.list(id);
  }

  /** Stores generated questions for a memory (prospective indexing). */
  addHints(memoryId: number, hints: string[]): number {
    const now = this.clock();
    const clean = [...new Set(hints.map((h) => h.trim().replace(/\s+/g, " ")).filter((h) => h.length > 0))];
    return withWriteTx(this.storage.db, () => this.storage.search.addHints(memoryId, clean, now));
  }

  counts(): { live: number; deleted: number; byScope: Record<string, number>; staleVectors: number } {
    const { memories, embeddings } = this.storage;
    return { ...memories.counts(), staleVectors: embeddings.countStale(this.provider.model) };
  }
}

/**
 * What `replace` did: the id of the memory that now holds the text (`deduped` when it was already
 * there), or why nothing changed: `skipped` (empty, only redacted text, or the same text and type) or
 * `not_live` (the old memory is missing, forgotten or already replaced).
 */
export type ReplaceOutcome =
  | { status: "replaced"; id: number; deduped: boolean; warnings?: string[] }
  | { status: "skipped"; reason: string }
  | { status: "not_live" };

/** Whether a text says anything once its redaction markers are set aside (a note that was all `<private>` does not). */
function saysSomething(content: string): boolean {
  return /[\p{L}\p{N}]/u.test(content.replace(/\[REDACTED:[a-z0-9-]+\]/g, ""));
}

/** Memories prepared and embedded by `MemoryStore.stage`, to be written inside a write transaction. */
export interface StagedMemories {
  /** The time every write of the batch is stamped with. */
  now: number;
  /** Stores the input at `index` (dedupe, history, vector, entities); call inside `withWriteTx`. */
  write(index: number): RememberOutcome;
  /** Stores every input in order, one revise job per batch of them (reviseJobsFor); call inside `withWriteTx`. */
  writeAll(): RememberOutcome[];
}

/** Vectors computed for a write, and why some are missing when the provider failed. */
interface Embedded {
  vectors: Map<string, Float32Array>;
  warning?: string;
}
