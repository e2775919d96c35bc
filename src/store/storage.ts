import type { Database } from "better-sqlite3";
import { openDatabase, openDatabaseReadOnly } from "./connection.js";
import type { AspectRepo } from "./contracts/aspects.js";
import type { TokenBudgetRepo } from "./contracts/budget.js";
import type { ContinuityRepo } from "./contracts/continuity.js";
import type { DocumentRepo } from "./contracts/documents.js";
import type { EligibilityRepo } from "./contracts/eligibility.js";
import type { EmbeddingRepo } from "./contracts/embeddings.js";
import type { EraseRepo } from "./contracts/erase.js";
import type { GraphRepo } from "./contracts/graph.js";
import type { HistoryRepo } from "./contracts/history.js";
import type { MemoryRepo } from "./contracts/memories.js";
import type { MetaRepo } from "./contracts/meta.js";
import type { ReviewRepo } from "./contracts/reviews.js";
import type { TranscriptRepo } from "./contracts/transcripts.js";
import type { VectorIndexRepo } from "./contracts/vectors.js";
import { JobQueue, type JobQueueOptions } from "./queue/jobQueue.js";
import { AspectRepository } from "./repositories/aspectRepository.js";
import { CheckpointRepository } from "./repositories/checkpointRepository.js";
import { ContinuityRepository } from "./repositories/continuityRepository.js";
import { DocumentRepository } from "./repositories/documentRepository.js";
import { EligibilityRepository } from "./repositories/eligibilityRepository.js";
import { EmbeddingRepository } from "./repositories/embeddingRepository.js";
import { EraseRepository } from "./repositories/eraseRepository.js";
import { GraphRepository } from "./repositories/graphRepository.js";
import { HistoryRepository } from "./repositories/historyRepository.js";
import { ItemsRepository } from "./repositories/itemsRepository.js";
import { MemoryRepository } from "./repositories/memoryRepository.js";
import { MetaRepository } from "./repositories/metaRepository.js";
import { Phase2State } from "./repositories/phase2State.js";
import { RetentionRepository } from "./repositories/retentionRepository.js";
import { ReviewRepository } from "./repositories/reviewRepository.js";
import { SearchRepository } from "./repositories/searchRepository.js";
import { SessionsRepository } from "./repositories/sessionsRepository.js";
import { SourceFilesRepository } from "./repositories/sourceFilesRepository.js";
import { Stage1Repository } from "./repositories/stage1Repository.js";
import { TokenBudget } from "./repositories/tokenBudget.js";
import { TranscriptRepository } from "./repositories/transcriptRepository.js";
import { VectorIndex } from "./vectorIndex.js";

/** The default of `embeddings.dimensions`. */
const DEFAULT_DIMENSIONS = 384;

export interface StorageOptions {
  queue?: JobQueueOptions;
  /** The configured embedding dimensions (`embeddings.dimensions`): the vector index is per width. */
  dimensions?: number;
  /** False keeps the vector index off even when sqlite-vec loaded (vectors are then scanned). */
  vectorIndex?: boolean;
}

/**
 * The one facade over the store: a repository per table group as a readonly field, sharing one
 * connection. Nothing outside src/store/ builds a repository from a bare connection. Repositories hold
 * no data caches, because the CLI, the daemon and several workers share the same SQLite file; the one
 * exception, search's document frequencies, checks on every use that no connection changed the index. Fields
 * typed by a contract (src/store/contracts/) are what a second backend implements; the others (search,
 * sessions, items, source files, stage 1, the queue) are still typed by their SQLite classes.
 */
export class Storage {
  readonly sessions: SessionsRepository;
  readonly items: ItemsRepository;
  readonly sourceFiles: SourceFilesRepository;
  readonly stage1: Stage1Repository;
  readonly eligibility: EligibilityRepo;
  /** Tokens spent per UTC day, shared by every process (`extraction.dailyTokenBudget`). */
  readonly budget: TokenBudgetRepo;
  readonly meta: MetaRepo;
  /** The one leased job queue for all background work. */
  readonly jobs: JobQueue;
  readonly memories: MemoryRepo;
  readonly history: HistoryRepo;
  /** Contradictions and other flags awaiting a person (`cairn memory review`). */
  readonly reviews: ReviewRepo;
  readonly graph: GraphRepo;
  readonly aspects: AspectRepo;
  /** Full-text search over memories and their hints. */
  readonly search: SearchRepository;
  readonly embeddings: EmbeddingRepo;
  readonly vectors: VectorIndexRepo;
  readonly transcripts: TranscriptRepo;
  /** Session checkpoints, for recovery after a compaction or a clear (migration 021). */
  readonly checkpoints: CheckpointRepository;
  /** Documents fed in with `cairn ingest` and the links of their chunks (migration 020). */
  readonly documents: DocumentRepo;
  /** Hard deletion of whole scopes (`cairn memory clear`). */
  readonly erase: EraseRepo;
  /** The retention sweep's purge steps (src/memory/retention/runRetention.ts). */
  readonly retention: RetentionRepository;
  /** Phase 2's watermark, force-next flag and last run, over meta. */
  readonly phase2: Phase2State;
  /** Which memories each session was given at its start, and how much it used them (continuity scoring). */
  readonly continuity: ContinuityRepo;

  private constructor(
    readonly db: Database,
    /** null when sqlite-vec loaded; otherwise why it did not (vectors are then scanned). */
    readonly vecError: string | null,
    options: StorageOptions,
  ) {
    this.sessions = new SessionsRepository(db);
    this.items = new ItemsRepository(db);
    this.sourceFiles = new SourceFilesRepository(db);
    this.stage1 = new Stage1Repository(db);
    this.eligibility = new EligibilityRepository(db);
    this.budget = new TokenBudget(db);
    this.meta = new MetaRepository(db);
    this.jobs = new JobQueue(db, options.queue);
    this.memories = new MemoryRepository(db);
    this.history = new HistoryRepository(db);
    this.reviews = new ReviewRepository(db);
    this.graph = new GraphRepository(db);
    this.aspects = new AspectRepository(db);
    this.search = new SearchRepository(db);
    this.embeddings = new EmbeddingRepository(db);
    const indexed = (options.vectorIndex ?? true) && vecError === null;
    this.vectors = new VectorIndex(db, options.dimensions ?? DEFAULT_DIMENSIONS, indexed);
    this.transcripts = new TranscriptRepository(db);
    this.checkpoints = new CheckpointRepository(db);
    this.documents = new DocumentRepository(db);
    this.erase = new EraseRepository(db, this.vectors);
    this.retention = new RetentionRepository(db, this.vectors);
    this.phase2 = new Phase2State(this.meta);
    this.continuity = new ContinuityRepository(db);
  }

  /** Opens (creating and migrating if needed) the store at `path`; `:memory:` gives a private in-memory one. */
  static open(path: string, options: StorageOptions = {}): Storage {
    const { db, vecError } = openDatabase(path);
    return new Storage(db, vecError, options);
  }

  /**
   * Opens an existing store for reading only (see `openDatabaseReadOnly`): for a start hook, which must
   * never create, migrate or wait long on the store. Vectors are not loaded, so vector search scans.
   */
  static openReadOnly(path: string, options: { busyTimeoutMs: number }): Storage {
    const db = openDatabaseReadOnly(path, options);
    return new Storage(db, "not loaded: the store was opened read-only", { vectorIndex: false });
  }

  /**
   * Stops SQLite's automatic WAL checkpoint on this connection: an import lane checkpoints between its
   * write turns instead (`checkpoint()`), so the other lane never waits for one inside a commit.
   */
  manualCheckpoints(): void {
    this.db.pragma("wal_autocheckpoint = 0");
  }

  /** Copies what the WAL holds into the database file without waiting for readers. */
  checkpoint(): void {
    this.db.pragma("wal_checkpoint(PASSIVE)");
  }

  /** The schema version the store is migrated to. */
  schemaVersion(): number {
    return this.db.pragma("user_version", { simple: true }) as number;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
