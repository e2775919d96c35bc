import { existsSync } from "node:fs";
import { type Collector, createCollector } from "./collection/collector.js";
import { exclusionCoverage, type PatternCoverage } from "./collection/exclusionCoverage.js";
import type { ScanReport } from "./collection/scanner.js";
import type { SessionRecord } from "./collection/types.js";
import { createMemoryRoot } from "./config/createMemoryRoot.js";
import { loadConfig } from "./config/load.js";
import { type CairnPaths, cairnHome, cairnPaths, tightenHomePermissions } from "./config/paths.js";
import type { CairnConfig } from "./config/schema.js";
import { assertWritable } from "./memory/assertWritable.js";
import { confirmMemory, editMemory, forgetMemory, type MemoryChange, restoreMemory } from "./memory/curateMemory.js";
import type { DocumentOutcome, OnDocumentStatus } from "./memory/documents/documentIngest.js";
import { type ForgetDocumentResult, forgetDocument } from "./memory/documents/forgetDocument.js";
import { EmbeddingTracker } from "./memory/embeddingTracker.js";
import { exportMemories, type MemoryExport } from "./memory/exportMemories.js";
import type { ImportReport } from "./memory/importMemories.js";
import { attachSupersessions } from "./memory/lifecycle/attachSupersessions.js";
import type { ReviseMode } from "./memory/lifecycle/reviseMemories.js";
import type { ReviseJobsReport } from "./memory/lifecycle/runReviseJobs.js";
import { USER_AUTHOR } from "./memory/memoryAuthor.js";
import { MemoryStore } from "./memory/memoryStore.js";
import { openReviews, type ReviewEntry, resolveReview } from "./memory/reviewQueue.js";
import type { MaintenanceReport } from "./memory/runMaintenanceJobs.js";
import { PROJECT_SCOPE, projectKeysOnce, recallScopes, rememberScope } from "./memory/scopes.js";
import type { RecallResponse, RememberInput, RememberOutcome } from "./memory/types.js";
import type { CycleOptions, CycleReports, ScanOptions } from "./pipeline/cycle.js";
import type { FactsReport } from "./pipeline/facts/ingestPending.js";
import type { HintsReport } from "./pipeline/hints/generateHints.js";
import type { Phase1Options, Phase1Report } from "./pipeline/phase1/runPhase1.js";
import type { Consolidator } from "./pipeline/phase2/consolidators/types.js";
import type { Phase2Report } from "./pipeline/phase2/runPhase2.js";
import { guardStatements } from "./pipeline/phase2/staleKnowledge.js";
import { type PipelineStatus, pipelineStatus } from "./pipeline/status.js";
import type { StructuralReport } from "./pipeline/structural/classifyStructure.js";
import type { StructuralCost } from "./pipeline/structural/structuralCost.js";
import { excludedWriteProblem, exclusionMatcher } from "./project/exclusion.js";
import { createEmbeddingProvider } from "./providers/embeddings/createEmbeddingProvider.js";
import type { EmbeddingProvider } from "./providers/embeddings/types.js";
import type { ResolvedLlm } from "./providers/llm/roles.js";
import { type ClearReport, clearMemory } from "./read/clearMemory.js";
import { emptyInjectionReason } from "./read/emptyInjectionReason.js";
import { emptyRecallReason } from "./read/emptyRecallReason.js";
import { folderState } from "./read/folderState.js";
import { buildInjection, type Injection } from "./read/inject.js";
import { readMemoryUrl } from "./read/memoryUrl.js";
import { type PurgeReport, type PurgeTarget, purgeMemory } from "./read/purgeMemory.js";
import { rememberedFrom } from "./read/rememberedMemories.js";
import { applyCitationUsage, confirmRecalledAspects, recordRecallUsage } from "./read/usageFeedback.js";
import { createRecall } from "./recall/createRecall.js";
import type { PredictorScorer } from "./recall/predictor.js";
import { guardText } from "./redact/guard.js";
import { redactText } from "./redact/redact.js";
import { type CheckpointRequest, checkpointRequest } from "./requests/checkpoint.js";
import { confirmRequest } from "./requests/confirm.js";
import { documentRequest, documentsRequest, forgetDocumentRequest, ingestRequest } from "./requests/documents.js";
import { editRequest } from "./requests/edit.js";
import { forgetRequest } from "./requests/forget.js";
import { historyRequest } from "./requests/history.js";
import { injectRequest } from "./requests/inject.js";
import { exportRequest } from "./requests/memoryTransfer.js";
import { parseRequest } from "./requests/parseRequest.js";
import { readRequest } from "./requests/read.js";
import { recallRequest } from "./requests/recall.js";
import { EPOCH_MS_FLOOR, futureProblem, rememberEntry } from "./requests/remember.js";
import { restoreRequest } from "./requests/restore.js";
import { reviewListRequest, reviewResolveRequest } from "./requests/review.js";
import type { AgentName, SessionItem, SessionKind } from "./sources/types.js";
import type { DocumentChunkLink, DocumentRecord } from "./store/contracts/documents.js";
import { followNeighbourText } from "./store/followNeighbourText.js";
import { PHASE1_KIND } from "./store/queue/jobKinds.js";
import { Storage } from "./store/storage.js";
import { assertStoreUsable } from "./store/storeCheck.js";
import { storeStillAtPath } from "./store/storeIdentity.js";
import { withWriteTx } from "./store/tx.js";
import type { HistoryEvent, MemoryRecord } from "./store/types/memoryRecord.js";
import type { Stage1Output } from "./store/types/stage1Output.js";
import { type Clock, HOUR_MS, systemClock } from "./util/clock.js";
import { CairnError, errorMessage } from "./util/errors.js";
import type { OnProgress } from "./util/progress.js";
import type { WorkerCycle, WorkerStats } from "./workers/backgroundWorker.js";
import {
  type CheckpointOutcome,
  readCheckpointSource,
  storedCheckpointSource,
} from "./workers/checkpoints/captureCheckpoint.js";
import { writeCheckpoint } from "./workers/checkpoints/writeCheckpoint.js";
import { workerNames } from "./workers/workerNames.js";
import type { WorkerSet } from "./workers/workerSet.js";
import { readWorkerStats } from "./workers/workerStatsStore.js";
import { SUPERSEDED_FILE_LIMIT, writeSupersededFile } from "./workspace/supersededFile.js";

export interface OpenCairnOptions {
  /** Memory root; defaults to `$CAIRN_HOME` or `~/.cairn`. */
  home?: string;
  /** Dotted config keys applied over the YAML file and the environment. */
  config?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /**
   * Import transcripts in worker threads (import lanes), each writing through its own connection on
   * the system clock. Default true. Set false to import in this thread, so every stored timestamp
   * follows an injected `clock` (tests, simulations).
   */
  importLanes?: boolean;
  /** The scorer recall's predictor stage uses when `recall.predictor.enabled` (seed 004; none ships). */
  predictor?: PredictorScorer;
  /**
   * The configuration of this memory root and environment, already read and validated (the CLI's
   * `loadConfigCached`, which spares a command the schema library); `config` cannot be given with it.
   */
  loadedConfig?: CairnConfig;
}

/** An item pushed by an agent: a session item without the key and origin cairn assigns. */
export type PushItem = Omit<SessionItem, "key" | "origin">;

export interface PushSession {
  agent?: AgentName;
  kind?: SessionKind;
  cwd?: string | null;
  title?: string;
}

/** What `ingest` did: each document ingested, each refused (a folder's), each left to another process. */
export interface IngestReport {
  scope: string;
  documents: DocumentOutcome[];
  failed: Array<{ id: number; source: string; error: string }>;
  queued: number[];
}

/** `cairn status`: the pipeline's state and each background worker's stats. */
export type CairnStatus = PipelineStatus & { workers: Record<string, WorkerStats> };

export function openCairn(options: OpenCairnOptions = {}): Cairn {
  return new Cairn(options);
}

/**
 * The library facade: every operation the CLI, the HTTP API and the MCP server expose, over one store.
 * The pipeline, the agents' transcript readers, the model providers and the workers are imported by the
 * methods that run them, so that a recall or an inject loads the store and recall alone
 * (docs/decisions/startup.md).
 */
export class Cairn {
  readonly paths: CairnPaths;
  readonly config: CairnConfig;
  readonly clock: Clock;
  readonly env: NodeJS.ProcessEnv;
  private readonly importLanes: boolean;
  private opened: Storage | undefined;
  private resolved: Promise<ResolvedLlm> | undefined;
  private store: MemoryStore | undefined;
  private embeddingProvider: EmbeddingProvider | undefined;
  private tracker: EmbeddingTracker | undefined;
  private workerSet: WorkerSet | undefined;
  private readonly predictor: PredictorScorer | undefined;

  constructor(options: OpenCairnOptions = {}) {
    this.env = options.env ?? process.env;
    this.paths = cairnPaths(options.home ?? cairnHome(this.env));
    if (options.loadedConfig && options.config)
      throw new CairnError("bad_input", "openCairn: give config overrides or a loaded config, not both");
    this.config =
      options.loadedConfig ??
      loadConfig({
        file: this.paths.config,
        env: this.env,
        ...(options.config ? { overrides: options.config } : {}),
      });
    this.clock = options.clock ?? systemClock;
    this.importLanes = options.importLanes ?? true;
    this.predictor = options.predictor;
  }

  /** The store, opened (and created, readable by the user only) on first use. */
  get storage(): Storage {
    if (!this.opened) {
      createMemoryRoot(this.paths.home);
      const tightened = tightenHomePermissions(this.paths.home);
      if (tightened.length > 0)
        process.stderr.write(`cairn: made the memory root readable by you only: ${tightened.join(", ")}\n`);
      assertStoreUsable(this.paths.database);
      const queue = this.config.queue;
      this.opened = Storage.open(this.paths.database, {
        queue: {
          clock: this.clock,
          leaseMs: queue.leaseSeconds * 1000,
          maxAttempts: queue.maxAttempts,
          backoffBaseMs: queue.backoffBaseMs,
          backoffMaxMs: queue.backoffMaxMs,
        },
        dimensions: this.config.embeddings.dimensions,
      });
      // The index side of the recall profile: the neighbours' text is indexed only when it is searched.
      const unchanged = followNeighbourText(this.opened, this.config.recall.contextIndex);
      if (unchanged) process.stderr.write(`${unchanged}\n`);
    }
    return this.opened;
  }

  collector(): Collector {
    return createCollector(this.storage, {
      maxUnprocessedItems: this.config.collection.maxUnprocessedItems,
      clock: this.clock,
      exclude: this.config.memories.exclude,
    });
  }

  /** One collection pass over every agent's sessions, then the idle trigger. */
  async scan(options: ScanOptions = {}): Promise<ScanReport> {
    const [{ scanTargets }, { scanSources }] = await Promise.all([
      import("./sources/registry.js"),
      import("./collection/scanner.js"),
    ]);
    const storage = this.storage;
    const targets = scanTargets({
      env: this.env,
      configured: this.config.sources,
      ...(options.overrides ? { overrides: options.overrides } : {}),
      ...(options.only ? { only: options.only } : {}),
    });
    const collector = this.collector();
    const lanes = this.importLanes
      ? { dbPath: this.paths.database, maxUnprocessedItems: this.config.collection.maxUnprocessedItems }
      : undefined;
    const report = await scanSources(
      { db: storage.db, files: storage.sourceFiles, collector, clock: this.clock },
      targets,
      {
        ...(options.onFile ? { onFile: options.onFile } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(lanes ? { lanes } : {}),
      },
    );
    const invalidatedIdle = withWriteTx(storage.db, () =>
      collector.sweepIdle(this.config.collection.idleHours * HOUR_MS),
    );
    const citations = applyCitationUsage(storage, this.clock());
    // A mistyped --source or a moved agent folder otherwise reads as "no sessions found".
    const missingRoots = targets.flatMap((target) =>
      target.roots.filter((path) => !existsSync(path)).map((path) => ({ agent: target.adapter.agent, path })),
    );
    return { ...report, invalidatedIdle, citedOutputs: citations.outputs, missingRoots };
  }

  /**
   * What each `memories.exclude` pattern covers among the sessions the store knows; undefined when
   * there is no store yet (no session is known).
   */
  exclusionCoverage(patterns: readonly string[]): PatternCoverage[] | undefined {
    if (this.opened === undefined && !existsSync(this.paths.database)) return undefined;
    return exclusionCoverage(patterns, this.storage.sessions.exclusionStates());
  }

  sessions(
    filter: { agent?: string; projectKey?: string; limit?: number } = {},
  ): Array<SessionRecord & { items: number }> {
    const counts = this.storage.items.countsBySession();
    return this.storage.sessions.list(filter).map((session) => ({ ...session, items: counts.get(session.id) ?? 0 }));
  }

  /**
   * The push API: an agent that does not write transcripts cairn can read feeds its session directly.
   * The same invalidation triggers apply as for scanned sessions. Returns the stored item id.
   */
  appendHistory(sessionId: string, item: PushItem, session: PushSession = {}): number {
    if (sessionId.trim().length === 0) throw new CairnError("bad_input", "appendHistory: sessionId must not be empty");
    if (typeof item.text !== "string") throw new CairnError("bad_input", "appendHistory: item.text must be a string");
    const now = this.clock();
    if (item.ts !== undefined) pushedTime(item.ts, now);
    const collector = this.collector();
    // The identifiers a caller names are stored and shown like the text (the key in every item row, the
    // tool in prompts): guarded at this door, so every later use of the key agrees with the stored one.
    const tool = item.tool ? guardText(item.tool) : undefined;
    const callId = item.callId ? guardText(item.callId) : undefined;
    return withWriteTx(this.storage.db, () =>
      collector.append(
        {
          id: guardText(sessionId),
          agent: session.agent ?? "push",
          kind: session.kind ?? "interactive",
          cwd: session.cwd ? guardText(session.cwd) : null,
          ...(session.title ? { title: session.title } : {}),
          startedAt: item.ts ?? now,
          updatedAt: item.ts ?? now,
        },
        {
          role: item.role,
          text: item.text,
          ...(tool ? { tool } : {}),
          ...(callId ? { callId } : {}),
          ...(item.isError ? { isError: true } : {}),
          ...(item.ts ? { ts: item.ts } : {}),
          origin: { file: "push", line: 0 },
        },
      ),
    );
  }

  /**
   * Marks a pushed (or scanned) session as ended: its unprocessed items become pending at once, and a
   * `session_end` checkpoint of it is written (when `workers.continuity.enabled`).
   */
  endSession(sessionId: string): boolean {
    const collector = this.collector();
    const ended = withWriteTx(this.storage.db, () => collector.end(guardText(sessionId)));
    const continuity = this.config.workers.continuity;
    if (continuity.enabled) {
      const capture = storedCheckpointSource(this.storage, {
        trigger: "session_end",
        sessionKey: guardText(sessionId),
        exclude: this.config.memories.exclude,
      });
      if (!("reason" in capture)) writeCheckpoint(this.storage, capture, continuity, this.clock());
    }
    return ended;
  }

  /**
   * Writes a session checkpoint now (the `explicit` trigger of `cairn checkpoint`, or `agent` for an
   * agent's request over HTTP or the library): of the session named, else of the newest stored session
   * of the project of `cwd`. Says why nothing was written when checkpoints are off; a session cairn does
   * not know is an error naming what to do.
   */
  async checkpoint(request: CheckpointRequest = {}): Promise<CheckpointOutcome> {
    const { session, cwd, trigger } = parseRequest(checkpointRequest, request);
    const continuity = this.config.workers.continuity;
    if (!continuity.enabled) return { written: false, reason: "workers.continuity.enabled is false" };
    const now = this.clock();
    const capture = await readCheckpointSource(
      this.storage,
      {
        trigger: trigger ?? "explicit",
        ...(session ? { sessionKey: guardText(session) } : {}),
        cwd: cwd ?? process.cwd(),
        exclude: this.config.memories.exclude,
      },
      now,
    );
    if ("reason" in capture)
      throw new CairnError(capture.excluded ? "project_excluded" : "session_not_found", redactText(capture.reason));
    return { written: true, ...writeCheckpoint(this.storage, capture, continuity, now) };
  }

  /**
   * The Memory Guidance block for a session starting in `cwd`: the workspace summaries and the memories
   * remembered in its project and globally (the store is read only when it exists; no model). An empty
   * block says why in `reason`.
   */
  inject(cwd: string = process.cwd()): Injection {
    parseRequest(injectRequest, { cwd });
    const limit = this.config.memories.rememberedInjectionLimit;
    const storeExists = this.opened !== undefined || existsSync(this.paths.database);
    const injection = buildInjection({
      memoriesRoot: this.paths.memories,
      cwd,
      tokenLimit: this.config.memories.summaryInjectionTokenLimit,
      remembered: storeExists ? { read: (request) => rememberedFrom(this.storage, request), limit } : undefined,
    });
    if (injection.text !== "") return injection;
    const { config } = this;
    const now = this.clock();
    const reason = emptyInjectionReason({
      config,
      memoriesRoot: this.paths.memories,
      cwd,
      workspace: injection.project,
      now,
      state: (folder) => (storeExists ? folderState({ storage: this.storage, config, folder, now }) : undefined),
    });
    return { ...injection, reason };
  }

  /**
   * Reads a `memory://root/...` (current project) or `memory://global/...` file from character
   * `offset` on; `length` is the whole file's.
   */
  readMemory(
    url: string,
    cwd: string = process.cwd(),
    offset = 0,
  ): { url: string; content: string; offset: number; length: number } {
    parseRequest(readRequest, { url, cwd, offset });
    const file = readMemoryUrl(url, { memoriesRoot: this.paths.memories, cwd });
    const length = file.content.length;
    if (offset > length)
      throw new CairnError(
        "bad_input",
        redactText(`offset ${offset} is past the end of ${url} (${length} characters)`),
      );
    return { url, content: offset === 0 ? file.content : file.content.slice(offset), offset, length };
  }

  /** The fact store (memories, embeddings, graph, hints) over the same database. */
  get memories(): MemoryStore {
    if (!this.store) {
      const { storage, embedder: embeddings, clock } = this;
      const config = this.config.recall;
      const onHit = (ids: number[]) => this.countRecallHits(ids);
      const predictor = this.predictor;
      const recall = createRecall({
        storage,
        provider: embeddings,
        config,
        clock,
        onHit,
        ...(predictor ? { predictor } : {}),
      });
      const frozen = this.config.pipeline.mutationsFrozen;
      this.store = new MemoryStore({ storage, embeddings, config, clock, recall, frozen });
    }
    return this.store;
  }

  /** The configured embedding provider, shared by the store and the embedding tracker. */
  get embedder(): EmbeddingProvider {
    this.embeddingProvider ??= createEmbeddingProvider(this.config.embeddings, {
      modelsDir: this.paths.models,
    });
    return this.embeddingProvider;
  }

  /**
   * Fills in vectors that are missing (the provider was down at write time) or stale (the model
   * changed), until none are left or the time budget is spent (EmbeddingTracker.drain); a call made
   * while another runs joins it.
   */
  async refreshEmbeddings(budgetMs?: number, onProgress?: OnProgress): Promise<number> {
    if (!this.config.recall.embeddingTracker.enabled) return 0;
    return this.embeddingTracker().drain(budgetMs, onProgress);
  }

  /**
   * Runs the store upkeep migrations queued (data backfills); a step of every pipeline cycle. While
   * `pipeline.mutationsFrozen` is true the jobs wait: they move, reword and forget memories.
   */
  async maintain(): Promise<MaintenanceReport> {
    if (this.config.pipeline.mutationsFrozen)
      return { done: [], warnings: [], skipped: "pipeline.mutationsFrozen is true: the store's upkeep waits" };
    const [{ runMaintenanceJobs }, { refreshCommandFacts }] = await Promise.all([
      import("./memory/runMaintenanceJobs.js"),
      import("./pipeline/phase1/offline/refreshCommandFacts.js"),
    ]);
    return runMaintenanceJobs({
      storage: this.storage,
      now: this.clock,
      tasks: { "offline-command-facts": (_storage, lease, now) => refreshCommandFacts(this.memories, lease, now) },
    });
  }

  private embeddingTracker(): EmbeddingTracker {
    const { db, memories, embeddings, vectors } = this.storage;
    this.tracker ??= new EmbeddingTracker({
      db,
      memories,
      embeddings,
      vectors,
      provider: this.embedder,
      config: this.config.recall.embeddingTracker,
      clock: this.clock,
    });
    return this.tracker;
  }

  /**
   * Prospective indexing: asks the default model for questions each memory answers (seed 004), at most
   * `limit` memories per pass, 20 to a model call. Skipped (with the reason in the report) when
   * `recall.hints.enabled` is off or no model is configured.
   */
  async generateHints(options: { limit?: number } = {}): Promise<HintsReport> {
    const { default: llm } = await this.providers();
    const { generateHints } = await import("./pipeline/hints/generateHints.js");
    return generateHints(
      {
        db: this.storage.db,
        store: this.memories,
        jobs: this.storage.jobs,
        meta: this.storage.meta,
        llm,
        config: this.config.recall.hints,
        concurrency: this.config.extraction.concurrency,
      },
      options,
    );
  }

  /**
   * Structural classification (seed 004): files the facts waiting on each entity under the entity's
   * aspects with the default model, up to 20 entities per call (`classifyBatchSize` facts of each), then decays
   * stale aspects. Skipped, with the reason and the count waiting, when disabled, frozen or offline.
   */
  async classifyStructure(): Promise<StructuralReport> {
    const { default: llm } = await this.providers();
    const { db, aspects, jobs, meta } = this.storage;
    const { pipeline } = this.config;
    const { classifyStructure } = await import("./pipeline/structural/classifyStructure.js");
    return classifyStructure({
      db,
      aspects,
      jobs,
      meta,
      llm,
      config: pipeline.structural,
      frozen: pipeline.mutationsFrozen,
      concurrency: this.config.extraction.concurrency,
      leaseMs: this.config.queue.leaseSeconds * 1000,
      clock: this.clock,
    });
  }

  /** What structural classification would cost for the facts waiting now (`cairn extract --dry-run`). */
  async structuralCost(): Promise<StructuralCost> {
    const { default: llm } = await this.providers();
    const { pipeline } = this.config;
    const { structuralCost } = await import("./pipeline/structural/structuralCost.js");
    return structuralCost({
      aspects: this.storage.aspects,
      config: pipeline.structural,
      frozen: pipeline.mutationsFrozen,
      llm,
    });
  }

  /**
   * Stores memories at once (raw first). `scope` defaults to the project of `cwd`; `global` and any other
   * label are allowed.
   */
  async remember(
    input: (RememberInput & { cwd?: string }) | Array<RememberInput & { cwd?: string }>,
  ): Promise<RememberOutcome[]> {
    const now = this.clock();
    const excluded = exclusionMatcher(this.config.memories.exclude);
    const projectKey = projectKeysOnce();
    const list = (Array.isArray(input) ? input : [input]).map(({ cwd, ...entry }) => {
      parseRequest(rememberEntry(), entry);
      const future = futureProblem(entry.occurredAt, now);
      if (future) throw new CairnError("bad_input", future);
      const scoped = rememberScope(entry, cwd ?? process.cwd(), projectKey);
      // A project memory is about the folder it runs in, given or not; another scope only about a given one.
      const folder = cwd ?? (scoped.scope === entry.scope ? null : process.cwd());
      const problem = excludedWriteProblem(excluded, { cwd: folder, scope: scoped.scope });
      if (problem) throw new CairnError("project_excluded", redactText(problem));
      return scoped;
    });
    const outcomes = await this.memories.remember(list);
    // Raw first, then revised before answering: a user who says "we moved to pnpm" sees npm superseded.
    const created = outcomes.flatMap((outcome) => (outcome.status === "created" && outcome.id ? [outcome.id] : []));
    if (created.length === 0) return outcomes;
    const revised = await this.revise({ ids: created });
    if (revised.superseded.length > 0 || revised.flagged.length > 0) this.refreshStaleGuard();
    return attachSupersessions(outcomes, revised);
  }

  /**
   * The memories of a scope (as in recall: default the project of `cwd` plus global) with their
   * provenance, author, dates and history, every text guarded on the way out; `all` adds the forgotten
   * and replaced ones, so the links between them travel too.
   */
  exportMemories(request: { scope?: string; all?: boolean; cwd?: string } = {}): MemoryExport {
    const { scope, all, cwd } = parseRequest(exportRequest, request);
    const scopes = recallScopes(scope, cwd ?? process.cwd());
    return exportMemories(this.storage, { scopes, withGone: all ?? false, now: this.clock() });
  }

  /**
   * Stores the memories of an export file (`text`, named `file` in errors) through the remember write
   * path, all or none: a bad line is an error naming it and nothing is stored. What the store holds
   * already is skipped, so importing a file twice adds nothing. The live memories created are revised
   * like any remembered one. `by.who` names the agent whose door imports (MCP, HTTP): the file's
   * statements of the user are then stored as that agent's notes (memory/importMemories.ts).
   */
  async importMemories(text: string, file: string, by: { who?: string } = {}): Promise<ImportReport> {
    const [{ readMemoryExport }, { importMemories }] = await Promise.all([
      import("./memory/readMemoryExport.js"),
      import("./memory/importMemories.js"),
    ]);
    const lines = readMemoryExport(text, file, this.clock());
    const excluded = exclusionMatcher(this.config.memories.exclude);
    for (const line of lines) {
      const problem = excludedWriteProblem(excluded, { cwd: null, scope: line.scope });
      if (problem)
        throw new CairnError(
          "project_excluded",
          redactText(`import: memory #${line.id}: ${problem}; nothing was imported`),
        );
    }
    const report = await importMemories(this.memories, lines, file, by);
    if (report.created === 0) return report;
    this.storage.phase2.requestForceNext();
    // Every write queued a revise job: run now, as remember does (the tombstones' jobs end at once).
    await this.revise({ ids: report.createdIds });
    // Tombstones came in with the file, and revision may have replaced more: injection checks against both.
    this.refreshStaleGuard();
    return report;
  }

  /**
   * Feeds documents in (docs/operations.md, Documents): a file, every Markdown, text and JSON file of a
   * folder, an http(s) URL, or a text with its title. Each becomes a document of the scope (as in
   * remember: the project of `cwd` by default) whose `document_ingest` job is queued and run at once
   * here, its statuses passed to `onStatus` as they are reached; its chunks are memories of type
   * `document_chunk`. A single document's refusal (not text, too large, 404, wrong type, a refused
   * address) is thrown as its one error with nothing stored; a folder's are listed in `failed`. A job
   * another process holds is left to it (`queued`). `by.who` names the agent of an HTTP or MCP door.
   */
  async ingest(
    request: { path?: string; url?: string; content?: string; title?: string; scope?: string; cwd?: string },
    options: { who?: string; onStatus?: OnDocumentStatus } = {},
  ): Promise<IngestReport> {
    const { path, url, content, title, scope: given, cwd: at } = parseRequest(ingestRequest, request);
    assertWritable(this.config.pipeline.mutationsFrozen);
    const cwd = at ?? process.cwd();
    const { scope } = rememberScope({ content: "", ...(given ? { scope: given } : {}) }, cwd);
    const problem = excludedWriteProblem(exclusionMatcher(this.config.memories.exclude), {
      cwd: at ?? (scope === given ? null : cwd),
      scope,
    });
    if (problem) throw new CairnError("project_excluded", redactText(problem));
    const [{ documentSourcesOf }, { queueDocuments }, { runDocumentJobs }] = await Promise.all([
      import("./memory/documents/documentSources.js"),
      import("./memory/documents/queueDocuments.js"),
      import("./workers/documentsWorker.js"),
    ]);
    const sources = documentSourcesOf({ path, url, content, title });
    const ids = queueDocuments(this.storage, sources, {
      scope,
      who: options.who ?? USER_AUTHOR,
      now: this.clock(),
    });
    const run = await runDocumentJobs(
      { memories: this.memories, config: this.config, clock: this.clock },
      {
        ids,
        // The source as given (a URL's query may hold a token the stored, redacted, source has lost).
        sources: new Map(ids.map((id, index) => [id, sources[index]!.source])),
        ...(options.onStatus ? { onStatus: options.onStatus } : {}),
      },
    );
    const report: IngestReport = { scope, documents: [], failed: [], queued: [] };
    ids.forEach((id, index) => {
      const outcome = run.outcomes.get(id);
      const error = run.errors.get(id);
      if (outcome) report.documents.push(outcome);
      // Named as the stored documents are (redacted): a file's name in a folder can hold a token.
      else if (error) report.failed.push({ id, source: guardText(sources[index]!.source), error: error.message });
      else report.queued.push(id);
    });
    const only = ids.length === 1 ? run.errors.get(ids[0]!) : undefined;
    if (only) throw only;
    return report;
  }

  /** The documents of a scope (as in recall: default the project of `cwd` plus global), newest first. */
  documents(request: { scope?: string; cwd?: string; limit?: number } = {}): DocumentRecord[] {
    const { scope, cwd, limit } = parseRequest(documentsRequest, request);
    return this.storage.documents.list({ scopes: recallScopes(scope, cwd ?? process.cwd()), limit: limit ?? 100 });
  }

  /** One document (forgotten ones too) with its chunks' memory ids, in order. */
  document(request: { id: number }): DocumentRecord & { chunks: DocumentChunkLink[] } {
    const { id } = parseRequest(documentRequest, request);
    const document = this.storage.documents.get(id);
    if (!document) throw new CairnError("memory_not_found", `no document #${id} (cairn documents lists them)`);
    return { ...document, chunks: this.storage.documents.chunks(id) };
  }

  /**
   * Forgets a document: its chunks are tombstoned (restorable one by one), except one another document
   * holds (cited under that one from then on), and it leaves the list.
   */
  forgetDocument(request: { id: number; reason?: string }, by: { who?: string } = {}): ForgetDocumentResult {
    const { id, reason } = parseRequest(forgetDocumentRequest, request);
    return forgetDocument(this.memories, id, { ...(by.who ? { who: by.who } : {}), ...(reason ? { reason } : {}) });
  }

  /**
   * Runs pending revise jobs (same-subject supersession of memories written raw): those of `ids`, or
   * every pending one (a step of every pipeline cycle). With `pipeline.mutationsFrozen` nothing runs and
   * the jobs wait; with `shadowMode`, or `allowUpdateDelete` off, replacements are flagged for review
   * instead of applied.
   */
  async revise(options: { ids?: number[] } = {}): Promise<ReviseJobsReport> {
    const { mutationsFrozen, shadowMode, allowUpdateDelete } = this.config.pipeline;
    if (mutationsFrozen) return { superseded: [], flagged: [], done: 0, warnings: [] };
    const mode: ReviseMode = shadowMode || !allowUpdateDelete ? "review" : "apply";
    const { runReviseJobs } = await import("./memory/lifecycle/runReviseJobs.js");
    return runReviseJobs({ store: this.memories, mode, ...(options.ids ? { ids: options.ids } : {}) });
  }

  /**
   * Hybrid recall. `scope`: `project` (default: the project of `cwd` plus global), `global`, `all`, or any
   * label given to remember.
   */
  async recall(
    request: {
      query: string;
      k?: number;
      scope?: string;
      cwd?: string;
      expand?: boolean;
      includeSuperseded?: boolean;
    },
    /** How the caller asks for every scope, named when nothing matched (default: the `scope: "all"` argument). */
    door: { everyScope?: string } = {},
  ): Promise<RecallResponse> {
    parseRequest(recallRequest(this.config.recall.maxK), request);
    const cwd = request.cwd ?? process.cwd();
    const scopes = recallScopes(request.scope, cwd);
    const response = await this.memories.recall({
      query: request.query,
      scopes,
      ...(request.k === undefined ? {} : { k: request.k }),
      ...(request.expand === undefined ? {} : { expand: request.expand }),
      ...(request.includeSuperseded === undefined ? {} : { includeSuperseded: request.includeSuperseded }),
    });
    if (response.results.length > 0) return response;
    // The default scope's first entry is the project of cwd: when it holds nothing, say why, as inject does.
    const projectKey =
      (request.scope ?? PROJECT_SCOPE) === PROJECT_SCOPE && Array.isArray(scopes) ? scopes[0] : undefined;
    const byScope = this.storage.memories.counts().byScope;
    return {
      ...response,
      reason: emptyRecallReason({
        query: request.query,
        scopes,
        byScope,
        ...(projectKey ? { project: { key: projectKey, reason: () => this.inject(cwd).reason } } : {}),
        ...(door.everyScope ? { everyScope: door.everyScope } : {}),
      }),
    };
  }

  private countRecallHits(ids: number[]): void {
    recordRecallUsage({ storage: this.storage, memoryOf: (id) => this.store?.get(id), ids, now: this.clock() });
    const { feedbackDelta: delta, minWeight, maxWeight } = this.config.pipeline.structural;
    confirmRecalledAspects({
      storage: this.storage,
      ids,
      weighting: { delta, minWeight, maxWeight },
      now: this.clock(),
    });
  }

  /** Deletes the memory of the project of `cwd`, or everything with `all`. */
  clearMemory(options: { cwd?: string; all?: boolean } = {}): ClearReport {
    assertWritable(this.config.pipeline.mutationsFrozen);
    const report = clearMemory({
      storage: this.storage,
      memoriesRoot: this.paths.memories,
      cwd: options.cwd ?? process.cwd(),
      all: options.all ?? false,
    });
    // The cleared memories' text leaves superseded.json now, not at the next write (--all removed the
    // whole memory root, that file with it: writing it again would bring the root back).
    if (report.scope === "project") this.refreshStaleGuard();
    return report;
  }

  /**
   * Removes a memory (any state, with its history) or a text, and every trace of that text in the store
   * and the memory files (`memory purge`); unlike forget and edit, nothing of it is kept.
   */
  purgeMemory(target: PurgeTarget): PurgeReport {
    assertWritable(this.config.pipeline.mutationsFrozen);
    return purgeMemory({ storage: this.storage, memoriesRoot: this.paths.memories, target, now: this.clock() });
  }

  /** Forces the next phase 2 to consolidate every workspace (`memory enqueue`). */
  enqueueConsolidation(): void {
    this.storage.phase2.requestForceNext();
  }

  /** Forgets one memory of any scope (ids are global): a tombstone, its history kept. */
  forgetMemory(request: { id: number; reason?: string }): MemoryChange {
    const { id, reason } = parseRequest(forgetRequest, request);
    return this.changed(forgetMemory(this.memories, id, { reason }));
  }

  /**
   * Replaces one memory by a new text and/or type, stored like any remember and superseding the old one.
   * `by.who` names who edits (default the user; MCP and HTTP name their agent, see memory/memoryAuthor.ts).
   */
  async editMemory(
    request: { id: number; content?: string; type?: string; reason?: string },
    by: { who?: string } = {},
  ): Promise<MemoryChange> {
    const edit = parseRequest(editRequest, request);
    const change = await editMemory(this.memories, by.who ? { ...edit, who: by.who } : edit);
    // The new text is revised like any remembered one (it may replace another memory of its scope).
    if (change.replacedBy !== undefined) await this.revise({ ids: [change.replacedBy] });
    return this.changed(change);
  }

  /**
   * The user confirms a memory an agent stored (MCP, HTTP): it becomes the user's statement, and a global
   * one reaches every project's sessions. Not offered over MCP or HTTP: an agent cannot confirm its own.
   * Phase 2 never reads remembered memories, so no workspace is rebuilt.
   */
  confirmMemory(request: { id: number; reason?: string }): MemoryChange {
    assertWritable(this.config.pipeline.mutationsFrozen);
    const { id, reason } = parseRequest(confirmRequest, request);
    return confirmMemory(this.memories, id, reason === undefined ? {} : { reason });
  }

  /** Brings back a forgotten or replaced memory. */
  restoreMemory(request: { id: number; reason?: string }): MemoryChange {
    const { id, reason } = parseRequest(restoreRequest, request);
    return this.changed(restoreMemory(this.memories, id, { reason }));
  }

  /**
   * A memory (live, forgotten or replaced) and everything recorded about it, oldest first: who changed
   * it, when and why, including what the store's upkeep did on an upgrade.
   */
  memoryHistory(request: { id: number }): { memory: MemoryRecord; events: HistoryEvent[] } {
    const { id } = parseRequest(historyRequest, request);
    const memory = this.memories.get(id);
    if (!memory)
      throw new CairnError("memory_not_found", `no memory #${id} (recall --json and memory review show ids)`);
    return { memory, events: this.memories.historyOf(id) };
  }

  /** Open review flags, both sides shown; `scope` as in recall (default: the project of `cwd` plus global). */
  reviews(request: { scope?: string; cwd?: string } = {}): ReviewEntry[] {
    const { scope, cwd } = parseRequest(reviewListRequest, request);
    return openReviews(this.memories, recallScopes(scope, cwd ?? process.cwd()));
  }

  /** A person's decision on a review flag: keep, supersede or forget. */
  async resolveReview(request: { flag: number; action: string }): Promise<MemoryChange> {
    const { flag, action } = parseRequest(reviewResolveRequest, request);
    return this.changed(await resolveReview(this.memories, { flag, action, clock: this.clock }));
  }

  /**
   * The workspaces show memories: any change to one makes the next phase 2 rebuild them. A flag kept
   * changes no memory, but its doubt mark goes.
   */
  private changed(change: MemoryChange): MemoryChange {
    if (change.change !== "kept") this.storage.phase2.requestForceNext();
    if (change.change !== "kept" || change.flag !== undefined) this.refreshStaleGuard();
    return change;
  }

  /**
   * Rewrites the list injection checks summaries against (memories/superseded.json) at once, so a
   * memory superseded or forgotten now is not injected as current, nor a doubted one unmarked, until
   * the next phase 2 rewrites the workspaces.
   */
  private refreshStaleGuard(): void {
    writeSupersededFile(this.paths.memories, guardStatements(this.storage, SUPERSEDED_FILE_LIMIT));
  }

  /** The model roles (resolved once per instance; null roles mean offline). */
  providers(): Promise<ResolvedLlm> {
    this.resolved ??= import("./providers/llm/roles.js").then(({ resolveLlm }) => resolveLlm(this.config, this.env));
    return this.resolved;
  }

  async describeProviders(): Promise<{ default: string; smol: string; reason: string }> {
    const resolved = await this.providers();
    const name = (provider: ResolvedLlm["default"]) => (provider ? `${provider.name} (${provider.model})` : "offline");
    return { default: name(resolved.default), smol: name(resolved.smol), reason: resolved.reason };
  }

  /** Phase 1: extract stage-1 memories from eligible sessions, then move their facts into the memory store. */
  async extract(options: Phase1Options = {}): Promise<Phase1Report> {
    const resolved = await this.providers();
    const [{ ingestOutput }, { runPhase1 }] = await Promise.all([
      import("./pipeline/facts/ingestPending.js"),
      import("./pipeline/phase1/runPhase1.js"),
    ]);
    const facts = await this.factIngest(resolved.default);
    return this.handingBackLeases(async () => {
      // Sessions leased by a cairn process that crashed on this host are due now, not when the lease ends.
      if (!options.dryRun) this.storage.jobs.reclaimStopped(PHASE1_KIND);
      // Each session's facts go in as soon as its output is stored, in its concurrency slot; the sweep
      // after phase 1 takes what is left (outputs of earlier runs, and any that failed just now).
      const inline = { outputs: 0, written: 0, belowThreshold: 0 };
      const afterOutput = async (sessionId: string) => {
        const output = facts && this.storage.stage1.get(sessionId);
        if (!facts || !output) return;
        // A failure leaves the output pending: the sweep retries it and reports it.
        const tally: FactsReport = { outputs: 0, written: 0, failed: 0, errors: [] };
        if (await ingestOutput(facts, output, tally)) {
          inline.outputs += tally.outputs;
          inline.written += tally.written;
          inline.belowThreshold += tally.belowThreshold ?? 0;
        }
      };
      const report = await runPhase1(
        { storage: this.storage, config: this.config, clock: this.clock, llm: resolved.default },
        { ...options, ...(options.dryRun || !facts ? {} : { afterOutput }) },
      );
      if (!options.dryRun) {
        const swept = await this.ingestPendingFacts(resolved.default);
        const belowThreshold = (swept.belowThreshold ?? 0) + inline.belowThreshold;
        report.facts = {
          ...swept,
          outputs: swept.outputs + inline.outputs,
          written: swept.written + inline.written,
          ...(belowThreshold > 0 ? { belowThreshold } : {}),
        };
      }
      return report;
    });
  }

  /**
   * Runs pipeline work so that a failure (a full disk, a damaged store, a bug) hands back every lease
   * this process still holds: the jobs become pending again at once, their attempts not spent, instead
   * of waiting for the leases to expire.
   */
  private async handingBackLeases<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.releaseLeases();
      throw error;
    }
  }

  /**
   * Queues again every job that failed permanently (dead), its attempts reset: after the cause is fixed
   * (a provider key, a crash), the next cycle runs them without waiting for new input. Counts by kind.
   */
  retryDead(): Record<string, number> {
    return this.storage.jobs.retryDead();
  }

  /** Gives back every lease this process holds (a failed or interrupted command); returns how many. */
  releaseLeases(): number {
    return this.opened?.jobs.releaseHeld() ?? 0;
  }

  /** The fact stage under the `pipeline` modes; `enabled: false` leaves every output pending. */
  private async ingestPendingFacts(llm: ResolvedLlm["default"]): Promise<NonNullable<Phase1Report["facts"]>> {
    const facts = await this.factIngest(llm);
    if (!facts) return { outputs: 0, written: 0, failed: 0, errors: [], skipped: "pipeline.enabled is false" };
    const { ingestPendingFacts } = await import("./pipeline/facts/ingestPending.js");
    return ingestPendingFacts({ ...facts, concurrency: this.config.extraction.concurrency });
  }

  /** How a stage-1 output's facts are ingested under the `pipeline` modes; null when the pipeline is off. */
  private async factIngest(llm: ResolvedLlm["default"]) {
    const { pipeline } = this.config;
    if (!pipeline.enabled) return null;
    const [{ ingestConfigOf }, { ingestStage1Facts }] = await Promise.all([
      import("./pipeline/facts/ingestFacts.js"),
      import("./pipeline/facts/stage1Facts.js"),
    ]);
    const config = ingestConfigOf(pipeline);
    return {
      stage1: this.storage.stage1,
      ingest: (output: Stage1Output) =>
        ingestStage1Facts(output, { store: this.memories, db: this.storage.db, llm, now: this.clock, config }),
      clock: this.clock,
    };
  }

  /** The main job: one pipeline cycle (pipeline/cycle.ts), the same steps the daemon and the background run take. */
  async run(options: Omit<CycleOptions, "onStepDone"> = {}): Promise<{
    scan: ScanReport;
    extract: Phase1Report;
    revise: ReviseJobsReport;
    consolidate: Phase2Report;
    hints: HintsReport;
    structural: StructuralReport;
    maintenance: MaintenanceReport;
    workers: CycleReports["workers"];
  }> {
    const { runCycle } = await import("./pipeline/cycle.js");
    const { scan, extract, revise, consolidate, hints, structural, maintenance, workers }: CycleReports =
      await runCycle(this, options);
    return { scan, extract, revise, consolidate, hints, structural, maintenance, workers };
  }

  /** Phase 2: consolidate stage-1 memories into the workspaces. */
  async consolidate(options: { force?: boolean } = {}): Promise<Phase2Report> {
    const consolidator = await this.consolidator();
    const { runPhase2 } = await import("./pipeline/phase2/runPhase2.js");
    return this.handingBackLeases(() =>
      runPhase2(
        {
          storage: this.storage,
          config: this.config,
          clock: this.clock,
          memoriesRoot: this.paths.memories,
          consolidator,
        },
        options,
      ),
    );
  }

  /** The consolidation mode in force: configured, else a model when there is one, else offline. */
  async consolidator(): Promise<Consolidator> {
    const { selectConsolidator } = await import("./pipeline/phase2/selectConsolidator.js");
    return selectConsolidator(this.config, async () => (await this.providers()).smol);
  }

  /**
   * The background workers of this process (src/workers/workerSet.ts), built on first use: the daemon
   * starts their schedules, a `cairn run` ticks each once as the last step of its cycle.
   */
  async workers(): Promise<WorkerSet> {
    if (!this.workerSet) {
      const { WorkerSet } = await import("./workers/workerSet.js");
      const cairn = this;
      this.workerSet = new WorkerSet({
        get storage() {
          return cairn.storage;
        },
        config: this.config,
        clock: this.clock,
        // A worker's failure can quote what it failed on (a model's answer, a document's URL).
        log: (line) => process.stderr.write(`cairn: ${redactText(line)}\n`),
        embeddingModel: () => {
          try {
            return cairn.embedder.model;
          } catch {
            return null;
          }
        },
        refreshEmbeddings: (budgetMs) => cairn.refreshEmbeddings(budgetMs),
        home: this.paths.home,
        llm: async () => (await cairn.providers()).smol,
        get memories() {
          return cairn.memories;
        },
      });
    }
    return this.workerSet;
  }

  /** One cycle of each background worker, by name (the last step of a pipeline cycle). */
  async runWorkers(): Promise<Record<string, WorkerCycle>> {
    return (await this.workers()).tickAll();
  }

  /** What the pipeline and the background workers are doing; phase 2's dirty flag says new input waits. */
  status(): CairnStatus {
    // A status is asked for most when something is wrong: a provider that cannot be built is reported in
    // it, not a reason to print nothing.
    let embedding: { model: string } | { problem: string };
    try {
      embedding = { model: this.embedder.model };
    } catch (error) {
      embedding = { problem: errorMessage(error) };
    }
    const pipeline = pipelineStatus({
      storage: this.storage,
      config: this.config,
      home: this.paths.home,
      now: this.clock(),
      embedding,
    });
    return { ...pipeline, workers: readWorkerStats(this.storage.meta, workerNames(), this.workerSet?.live()) };
  }

  /**
   * For a long-lived process (the daemon, the resident, the MCP server): when the store's path now names
   * another file than the one opened (`cairn doctor --repair` swapped a rebuilt store in, a backup was
   * restored), closes the old one so that the next use opens, and checks, the file at the path. Writes
   * never land in the old file meanwhile: the write guard refuses them (src/store/storeIdentity.ts).
   * True when it reopened.
   */
  reopenIfReplaced(): boolean {
    if (!this.opened || storeStillAtPath(this.opened.db)) return false;
    this.close();
    return true;
  }

  close(): void {
    this.opened?.close();
    this.opened = undefined;
    // Both hold the connection just closed: rebuilt on the next use.
    this.store = undefined;
    this.tracker = undefined;
  }
}

/**
 * A pushed item's time, in epoch milliseconds: one from the future would date its facts after
 * everything said until then, and epoch seconds read as 1970 leave the session too old to extract.
 */
function pushedTime(ts: number, now: number): void {
  // A caller's value is quoted back (a string where a number belongs can be anything): redacted.
  const bad = (why: string) => new CairnError("bad_input", redactText(`appendHistory: ${why}`));
  if (!Number.isFinite(ts)) throw bad(`item.ts must be epoch milliseconds; got ${String(ts)}`);
  if (ts < EPOCH_MS_FLOOR)
    throw bad(
      `item.ts must be epoch milliseconds; ${ts} is ${new Date(ts).toISOString().slice(0, 10)} (seconds given?)`,
    );
  const future = futureProblem(ts, now, "item.ts");
  if (future) throw bad(future);
}
