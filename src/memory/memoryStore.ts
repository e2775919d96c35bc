import type { Database } from "better-sqlite3";
import type { RecallConfig } from "../config/recallConfig.js";
import type { EmbeddingProvider } from "../providers/embeddings/types.js";
import { hybridRecall } from "../recall/hybridRecall.js";
import type { RecallDeps } from "../recall/recallDeps.js";
import type { RerankProvider } from "../recall/rerank.js";
import { EmbeddingRepository } from "../store/repositories/embeddingRepository.js";
import { GraphRepository } from "../store/repositories/graphRepository.js";
import { HistoryRepository } from "../store/repositories/historyRepository.js";
import { MemoryRepository } from "../store/repositories/memoryRepository.js";
import { SearchRepository } from "../store/repositories/searchRepository.js";
import { TranscriptRepository } from "../store/repositories/transcriptRepository.js";
import { withWriteTx } from "../store/tx.js";
import { VectorIndex } from "../store/vectorIndex.js";
import { shippedLexicon } from "../text/lexicon/concepts.js";
import { type Clock, systemClock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import { linkEntities } from "./entityLinker.js";
import { type PreparedMemory, prepareRemember } from "./prepareRemember.js";
import type {
  HistoryEvent,
  MemoryRecord,
  RecallRequest,
  RecallResponse,
  RememberInput,
  RememberOutcome,
} from "./types.js";

export interface MemoryStoreOptions {
  db: Database;
  embeddings: EmbeddingProvider;
  /** The `recall` section of the configuration. */
  config: RecallConfig;
  clock?: Clock;
  /** False when sqlite-vec did not load (openDatabase's vecError): vectors are then scanned. */
  vectorIndex?: boolean;
  /** The reranker used when `reranker.kind` is `provider`. */
  reranker?: RerankProvider;
  /** Called with the ids recall returned, after usage counters were bumped. */
  onHit?: (ids: number[]) => void;
}

/** Texts per embedding call on the write path. */
const EMBED_BATCH = 256;

/**
 * The memory store facade. Writes are raw-first: vectors are computed before the write transaction
 * and a provider failure never loses a memory (the embedding tracker fills the vector in later).
 */
export class MemoryStore {
  readonly memories: MemoryRepository;
  readonly history: HistoryRepository;
  readonly embeddingRows: EmbeddingRepository;
  readonly graph: GraphRepository;
  readonly search: SearchRepository;
  readonly vectors: VectorIndex;
  private readonly deps: RecallDeps;
  private readonly clock: Clock;

  constructor(private readonly options: MemoryStoreOptions) {
    const { db } = options;
    this.clock = options.clock ?? systemClock;
    this.memories = new MemoryRepository(db);
    this.history = new HistoryRepository(db);
    this.embeddingRows = new EmbeddingRepository(db);
    this.graph = new GraphRepository(db);
    this.search = new SearchRepository(db);
    this.vectors = new VectorIndex(db, options.embeddings.dimensions, options.vectorIndex ?? isVecLoaded(db));
    this.deps = {
      memories: this.memories,
      search: this.search,
      embeddings: this.embeddingRows,
      vectorIndex: this.vectors,
      graph: this.graph,
      transcripts: new TranscriptRepository(db),
      provider: options.embeddings,
      config: options.config,
      clock: this.clock,
      ...(options.reranker ? { reranker: options.reranker } : {}),
    };
  }

  get provider(): EmbeddingProvider {
    return this.options.embeddings;
  }

  async remember(input: RememberInput): Promise<RememberOutcome>;
  async remember(input: RememberInput[]): Promise<RememberOutcome[]>;
  async remember(input: RememberInput | RememberInput[]): Promise<RememberOutcome | RememberOutcome[]> {
    const inputs = Array.isArray(input) ? input : [input];
    const now = this.clock();
    const { depth } = this.options.config.conceptIndex;
    const concepts = depth > 0 ? { lexicon: shippedLexicon(), depth } : undefined;
    const prepared = inputs.map((i) => prepareRemember(i, now, concepts));
    const vectors = await this.embedOutsideTx(prepared.filter((p) => !p.skip).map((p) => p.row.content));
    const outcomes = withWriteTx(this.options.db, () => prepared.map((p) => this.writeOne(p, vectors, now)));
    return Array.isArray(input) ? outcomes : outcomes[0]!;
  }

  /** Embeds distinct texts; on failure returns what it has (the tracker fills the rest). */
  private async embedOutsideTx(texts: string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    const distinct = [...new Set(texts)];
    try {
      for (let i = 0; i < distinct.length; i += EMBED_BATCH) {
        const batch = distinct.slice(i, i + EMBED_BATCH);
        const vectors = await this.options.embeddings.embed(batch);
        batch.forEach((text, j) => {
          const vector = vectors[j];
          if (vector) out.set(text, vector);
        });
      }
    } catch {
      // Raw first: the memories are stored without vectors and the tracker retries later.
    }
    return out;
  }

  private writeOne(p: PreparedMemory, vectors: Map<string, Float32Array>, now: number): RememberOutcome {
    const { row } = p;
    if (p.skip) return { status: "skipped", contentHash: row.contentHash, reason: p.skip };
    const vector = vectors.get(row.content);
    const id = this.memories.insert({ ...row, embeddingModel: vector ? this.provider.model : null });
    if (id === undefined) {
      const existing = this.memories.findLiveByHash(row.scope, row.contentHash);
      return { status: "deduped", contentHash: row.contentHash, ...(existing === undefined ? {} : { id: existing }) };
    }
    this.history.add({ memoryId: id, event: "created", newContent: row.content, who: row.who, reason: row.why, now });
    if (vector) {
      this.embeddingRows.upsert(row.contentHash, this.provider.model, vector, now);
      this.vectors.upsert(id, row.scope, vector, false);
    }
    for (const entity of linkEntities(row.content)) {
      const entityId = this.graph.upsertEntity(entity.name, entity.entityType, now);
      this.graph.addMention(id, entityId, entity.name, entity.confidence, p.decision ? "constraint" : "attribute");
    }
    return { status: "created", id, contentHash: row.contentHash };
  }

  async recall(request: RecallRequest): Promise<RecallResponse> {
    const response = await hybridRecall(this.deps, request);
    const ids = response.results.map((r) => r.id);
    if (request.countUsage !== false && ids.length > 0) {
      try {
        withWriteTx(this.options.db, () => this.memories.bumpUsage(ids, this.clock()));
      } catch (error) {
        response.warnings.push(`usage counters not updated: ${errorMessage(error)}`);
      }
    }
    this.options.onHit?.(ids);
    return response;
  }

  get(id: number): MemoryRecord | undefined {
    return this.memories.get(id);
  }

  /** Tombstones a memory (never a hard delete) and records why. */
  forget(id: number, options: { who?: string; reason?: string } = {}): boolean {
    const now = this.clock();
    return withWriteTx(this.options.db, () => {
      const record = this.memories.get(id);
      if (!record || record.deletedAt !== null || !this.memories.tombstone(id, now)) return false;
      this.vectors.remove(id);
      this.history.add({
        memoryId: id,
        event: "deleted",
        oldContent: record.content,
        who: options.who ?? null,
        reason: options.reason ?? null,
        now,
      });
      return true;
    });
  }

  historyOf(id: number): HistoryEvent[] {
    return this.history.list(id);
  }

  /** Stores generated questions for a memory (prospective indexing). */
  addHints(memoryId: number, hints: string[]): number {
    const now = this.clock();
    const clean = [...new Set(hints.map((h) => h.trim().replace(/\s+/g, " ")).filter((h) => h.length > 0))];
    return withWriteTx(this.options.db, () => this.search.addHints(memoryId, clean, now));
  }

  counts(): { live: number; deleted: number; byScope: Record<string, number>; staleVectors: number } {
    return { ...this.memories.counts(), staleVectors: this.embeddingRows.countStale(this.provider.model) };
  }
}

function isVecLoaded(db: Database): boolean {
  try {
    db.prepare("SELECT vec_version()").get();
    return true;
  } catch {
    return false;
  }
}
