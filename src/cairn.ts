import { mkdirSync } from "node:fs";
import { type Collector, createCollector } from "./collection/collector.js";
import { type FileReport, type ScanReport, scanSources } from "./collection/scanner.js";
import type { SessionRecord } from "./collection/types.js";
import { loadConfig } from "./config/load.js";
import { type CairnPaths, cairnHome, cairnPaths, tightenHomePermissions } from "./config/paths.js";
import type { CairnConfig } from "./config/schema.js";
import { EmbeddingTracker } from "./memory/embeddingTracker.js";
import { MemoryStore } from "./memory/memoryStore.js";
import { runMaintenanceJobs } from "./memory/runMaintenanceJobs.js";
import type { RecallResponse, RememberInput, RememberOutcome } from "./memory/types.js";
import { ingestStage1Facts } from "./pipeline/facts/stage1Facts.js";
import { generateHints, type HintsReport } from "./pipeline/hints/generateHints.js";
import { type Phase1Options, type Phase1Report, runPhase1 } from "./pipeline/phase1/runPhase1.js";
import { agentConsolidator } from "./pipeline/phase2/consolidators/agentConsolidator.js";
import { llmConsolidator } from "./pipeline/phase2/consolidators/llmConsolidator.js";
import { offlineConsolidator } from "./pipeline/phase2/consolidators/offlineConsolidator.js";
import type { Consolidator } from "./pipeline/phase2/consolidators/types.js";
import {
  FORCE_NEXT_KEY,
  LAST_RUN_KEY,
  newestInput,
  type Phase2Report,
  runPhase2,
  WATERMARK_KEY,
} from "./pipeline/phase2/runPhase2.js";
import { projectIdentity } from "./project/projectKey.js";
import { createEmbeddingProvider } from "./providers/embeddings/createEmbeddingProvider.js";
import type { EmbeddingProvider } from "./providers/embeddings/types.js";
import { type ResolvedLlm, resolveLlm } from "./providers/llm/roles.js";
import { type ClearReport, clearMemory } from "./read/clearMemory.js";
import { buildInjection, type Injection } from "./read/inject.js";
import { readMemoryUrl } from "./read/memoryUrl.js";
import { applyCitationUsage } from "./read/usageFeedback.js";
import { createRecall } from "./recall/createRecall.js";
import { type SourceAgent, scanTargets } from "./sources/registry.js";
import type { AgentName, SessionItem, SessionKind } from "./sources/types.js";
import { PHASE1_KIND } from "./store/repositories/eligibilityRepository.js";
import { Storage } from "./store/storage.js";
import { assertStoreUsable } from "./store/storeCheck.js";
import { withWriteTx } from "./store/tx.js";
import { type Clock, DAY_MS, HOUR_MS, systemClock } from "./util/clock.js";
import { CairnError, errorMessage } from "./util/errors.js";

export interface OpenCairnOptions {
  /** Memory root; defaults to `$CAIRN_HOME` or `~/.cairn`. */
  home?: string;
  /** Dotted config keys applied over the YAML file and the environment. */
  config?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}

/** An item pushed by an agent: a session item without the key and origin cairn assigns. */
export type PushItem = Omit<SessionItem, "key" | "origin">;

export interface PushSession {
  agent?: AgentName;
  kind?: SessionKind;
  cwd?: string | null;
  title?: string;
}

export function openCairn(options: OpenCairnOptions = {}): Cairn {
  return new Cairn(options);
}

/**
 * The library facade: every operation the CLI, the HTTP API and the MCP server expose, over one store.
 */
export class Cairn {
  readonly paths: CairnPaths;
  readonly config: CairnConfig;
  readonly clock: Clock;
  readonly env: NodeJS.ProcessEnv;
  private opened: Storage | undefined;
  private resolved: Promise<ResolvedLlm> | undefined;
  private store: MemoryStore | undefined;
  private embeddingProvider: EmbeddingProvider | undefined;
  private refreshing: Promise<number> | undefined;

  constructor(options: OpenCairnOptions = {}) {
    this.env = options.env ?? process.env;
    this.paths = cairnPaths(options.home ?? cairnHome(this.env));
    this.config = loadConfig({
      file: this.paths.config,
      env: this.env,
      ...(options.config ? { overrides: options.config } : {}),
    });
    this.clock = options.clock ?? systemClock;
  }

  /** The store, opened (and created, readable by the user only) on first use. */
  get storage(): Storage {
    if (!this.opened) {
      mkdirSync(this.paths.home, { recursive: true, mode: 0o700 });
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
  async scan(
    options: {
      overrides?: Partial<Record<SourceAgent, string[]>>;
      only?: SourceAgent[];
      onFile?: (report: FileReport, done: number) => void;
    } = {},
  ): Promise<ScanReport> {
    const storage = this.storage;
    const targets = scanTargets({
      env: this.env,
      configured: this.config.sources,
      ...(options.overrides ? { overrides: options.overrides } : {}),
      ...(options.only ? { only: options.only } : {}),
    });
    const collector = this.collector();
    // Import lanes write through connections of their own, on the system clock: a store opened with
    // an injected clock (tests, simulations) imports in this thread so every timestamp follows it.
    const lanes =
      this.clock === systemClock
        ? { dbPath: this.paths.database, maxUnprocessedItems: this.config.collection.maxUnprocessedItems }
        : undefined;
    const report = await scanSources(
      { db: storage.db, files: storage.sourceFiles, collector, clock: this.clock },
      targets,
      { ...(options.onFile ? { onFile: options.onFile } : {}), ...(lanes ? { lanes } : {}) },
    );
    const invalidatedIdle = withWriteTx(storage.db, () =>
      collector.sweepIdle(this.config.collection.idleHours * HOUR_MS),
    );
    const citations = applyCitationUsage(storage, this.clock());
    return { ...report, invalidatedIdle, citedOutputs: citations.outputs };
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
    const collector = this.collector();
    return withWriteTx(this.storage.db, () =>
      collector.append(
        {
          id: sessionId,
          agent: session.agent ?? "push",
          kind: session.kind ?? "interactive",
          cwd: session.cwd ?? null,
          ...(session.title ? { title: session.title } : {}),
          startedAt: item.ts ?? now,
          updatedAt: item.ts ?? now,
        },
        {
          role: item.role,
          text: item.text,
          ...(item.tool ? { tool: item.tool } : {}),
          ...(item.callId ? { callId: item.callId } : {}),
          ...(item.isError ? { isError: true } : {}),
          ...(item.ts ? { ts: item.ts } : {}),
          origin: { file: "push", line: 0 },
        },
      ),
    );
  }

  /** Marks a pushed (or scanned) session as ended: its unprocessed items become pending at once. */
  endSession(sessionId: string): boolean {
    const collector = this.collector();
    return withWriteTx(this.storage.db, () => collector.end(sessionId));
  }

  /** The Memory Guidance block for a session starting in `cwd` (files only: no store, no model). */
  inject(cwd: string = process.cwd()): Injection {
    return buildInjection({
      memoriesRoot: this.paths.memories,
      cwd,
      tokenLimit: this.config.memories.summaryInjectionTokenLimit,
    });
  }

  /** Reads a `memory://root/...` (current project) or `memory://global/...` file. */
  readMemory(url: string, cwd: string = process.cwd()): { url: string; content: string } {
    return readMemoryUrl(url, { memoriesRoot: this.paths.memories, cwd });
  }

  /** The fact store (memories, embeddings, graph, hints) over the same database. */
  get memories(): MemoryStore {
    if (!this.store) {
      const { storage, embedder: embeddings, clock } = this;
      const config = this.config.recall;
      const onHit = (ids: number[]) => this.countRecallHits(ids);
      const recall = createRecall({ storage, provider: embeddings, config, clock, onHit });
      this.store = new MemoryStore({ storage, embeddings, config, clock, recall });
    }
    return this.store;
  }

  /** The configured embedding provider, shared by the store and the embedding tracker. */
  get embedder(): EmbeddingProvider {
    this.embeddingProvider ??= createEmbeddingProvider(this.config.embeddings);
    return this.embeddingProvider;
  }

  /**
   * Fills in vectors that are missing (the provider was down at write time) or stale (the model
   * changed), in the tracker's small batches, until none are left or `maxCycles` ran. A call made
   * while another is running joins it: `cairn serve` refreshes from its pipeline cycle and from its
   * own poll, and two trackers would embed the same memories twice.
   */
  refreshEmbeddings(maxCycles = 50): Promise<number> {
    this.refreshing ??= this.refreshOnce(maxCycles).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refreshOnce(maxCycles: number): Promise<number> {
    if (!this.config.recall.embeddingTracker.enabled) return 0;
    const { db, memories, embeddings, vectors } = this.storage;
    const tracker = new EmbeddingTracker({
      db,
      memories,
      embeddings,
      vectors,
      provider: this.embedder,
      config: this.config.recall.embeddingTracker,
      clock: this.clock,
    });
    let total = 0;
    for (let cycle = 0; cycle < maxCycles; cycle++) {
      const written = await tracker.runCycle();
      if (written === 0) break;
      total += written;
    }
    return total;
  }

  /**
   * Prospective indexing: asks the default model for questions each memory answers (seed 004), at most
   * `limit` memories per call. Skipped (with the reason in the report) when `recall.hints.enabled` is
   * off or no model is configured.
   */
  async generateHints(options: { limit?: number } = {}): Promise<HintsReport> {
    const { default: llm } = await this.providers();
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
   * Stores memories at once (raw first). `scope` defaults to the project of `cwd`; `global` and any other
   * label are allowed.
   */
  async remember(
    input: (RememberInput & { cwd?: string }) | Array<RememberInput & { cwd?: string }>,
  ): Promise<RememberOutcome[]> {
    const list = (Array.isArray(input) ? input : [input]).map(({ cwd, ...entry }) => {
      if (typeof entry.content !== "string" || entry.content.trim().length === 0) {
        throw new CairnError("bad_input", "remember: content must be a non-empty string");
      }
      const project = projectIdentity(cwd ?? process.cwd()).key;
      const scope = entry.scope === undefined || entry.scope === "project" ? project : entry.scope;
      return { ...entry, scope, who: entry.who ?? "user" };
    });
    return this.memories.remember(list);
  }

  /**
   * Hybrid recall. `scope`: `project` (default: the project of `cwd` plus global), `global`, `all`, or any
   * label given to remember.
   */
  async recall(request: {
    query: string;
    k?: number;
    scope?: string;
    cwd?: string;
    expand?: boolean;
  }): Promise<RecallResponse> {
    if (typeof request.query !== "string" || request.query.trim().length === 0) {
      throw new CairnError("bad_input", "recall: query must be a non-empty string");
    }
    const scope = request.scope ?? "project";
    const scopes =
      scope === "all"
        ? ("all" as const)
        : scope === "project"
          ? [projectIdentity(request.cwd ?? process.cwd()).key, "global"]
          : [scope];
    return this.memories.recall({
      query: request.query,
      scopes,
      ...(request.k === undefined ? {} : { k: request.k }),
      ...(request.expand === undefined ? {} : { expand: request.expand }),
    });
  }

  /**
   * A recall hit on a memory extracted from a session counts as use of that session's stage-1 output.
   * Best-effort: a read-only or full store still answers recalls (the memory store's own usage write
   * fails the same way and already adds a warning to the response).
   */
  private countRecallHits(ids: number[]): void {
    const sessions = ids
      .map((id) => this.store?.get(id)?.provenance.sessionId)
      .filter((id): id is string => typeof id === "string");
    try {
      if (sessions.length > 0) this.storage.stage1.recordUsage(sessions, this.clock());
    } catch {
      // See above: the counters only rank consolidation input; the answer matters more.
    }
  }

  /** Deletes the memory of the project of `cwd`, or everything with `all`. */
  clearMemory(options: { cwd?: string; all?: boolean } = {}): ClearReport {
    return clearMemory({
      storage: this.storage,
      memoriesRoot: this.paths.memories,
      cwd: options.cwd ?? process.cwd(),
      all: options.all ?? false,
    });
  }

  /** Forces the next phase 2 to consolidate every workspace (`memory enqueue`). */
  enqueueConsolidation(): void {
    this.storage.meta.set(FORCE_NEXT_KEY, true);
  }

  /** The model roles (resolved once per instance; null roles mean offline). */
  providers(): Promise<ResolvedLlm> {
    this.resolved ??= resolveLlm(this.config, this.env);
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
    return this.handingBackLeases(async () => {
      // Sessions leased by a cairn process that crashed on this host are due now, not when the lease ends.
      if (!options.dryRun) this.storage.jobs.reclaimStopped(PHASE1_KIND);
      const report = await runPhase1(
        { storage: this.storage, config: this.config, clock: this.clock, llm: resolved.default },
        options,
      );
      if (!options.dryRun) report.facts = await this.ingestPendingFacts(resolved.default);
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

  /** Gives back every lease this process holds (a failed or interrupted command); returns how many. */
  releaseLeases(): number {
    return this.opened?.jobs.releaseHeld() ?? 0;
  }

  /**
   * Stage-1 outputs are stored first; their facts follow in a separate step, so a crash or a failing
   * decision model leaves them pending for the next run instead of losing them.
   */
  private async ingestPendingFacts(llm: ResolvedLlm["default"]): Promise<NonNullable<Phase1Report["facts"]>> {
    const totals: NonNullable<Phase1Report["facts"]> = { outputs: 0, written: 0, failed: 0, errors: [] };
    const failed = new Set<string>();
    for (;;) {
      // Outputs that failed this run stay pending for the next one; skip past them, not stop at them.
      const batch = this.storage.stage1
        .pendingFacts(50 + failed.size)
        .filter((output) => !failed.has(output.sessionId));
      if (batch.length === 0) return totals;
      for (const output of batch) {
        try {
          const { written } = await ingestStage1Facts(output, {
            store: this.memories,
            db: this.storage.db,
            llm,
            now: this.clock,
          });
          this.storage.stage1.markFactsIngested(output.sessionId, output.generatedAt, this.clock());
          totals.outputs += 1;
          totals.written += written;
        } catch (error) {
          failed.add(output.sessionId);
          totals.failed += 1;
          totals.errors.push({ sessionId: output.sessionId, error: errorMessage(error) });
        }
      }
    }
  }

  /** The main job: collection, then phase 1, then phase 2. */
  async run(
    options: { scan?: Parameters<Cairn["scan"]>[0]; extract?: Phase1Options; force?: boolean } = {},
  ): Promise<{ scan: ScanReport; extract: Phase1Report; consolidate: Phase2Report; hints: HintsReport }> {
    runMaintenanceJobs({ storage: this.storage });
    const scan = await this.scan(options.scan);
    const extract = await this.extract(options.extract);
    const consolidate = await this.consolidate({ force: options.force ?? false });
    await this.refreshEmbeddings();
    const hints = await this.handingBackLeases(() => this.generateHints());
    return { scan, extract, consolidate, hints };
  }

  /** Phase 2: consolidate stage-1 memories into the workspaces. */
  async consolidate(options: { force?: boolean } = {}): Promise<Phase2Report> {
    const consolidator = await this.consolidator();
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
    const { mode, agentCli, maxInputTokens, timeoutMs } = this.config.consolidation;
    const summaryTokenLimit = this.config.memories.summaryInjectionTokenLimit;
    if (mode === "offline") return offlineConsolidator;
    if (mode === "agent") return agentConsolidator({ cli: agentCli, timeoutMs, summaryTokenLimit });
    const { smol } = await this.providers();
    if (smol) return llmConsolidator(smol, { maxInputTokens, summaryTokenLimit });
    if (mode === "llm") {
      throw new CairnError(
        "no_provider",
        "consolidation.mode is llm but no model is configured or detected; see 'cairn doctor'",
      );
    }
    return offlineConsolidator;
  }

  /** What the pipeline is doing and whether phase 2 has new input (dirty) since its last success. */
  status() {
    const storage = this.storage;
    const now = this.clock();
    const watermark = storage.meta.get<number>(WATERMARK_KEY) ?? null;
    const newest = newestInput(storage);
    const pending = storage.eligibility.breakdown({
      now,
      allowedKinds: this.config.memories.allowedKinds,
      oldest: now - this.config.memories.maxRolloutAgeDays * DAY_MS,
      newest: now - this.config.memories.minRolloutIdleHours * HOUR_MS,
      scanLimit: this.config.extraction.scanLimit,
    });
    return {
      home: this.paths.home,
      memoriesEnabled: this.config.memories.enabled,
      sessions: storage.sessions.count(),
      items: storage.items.count(),
      stage1Outputs: storage.stage1.count(),
      pending,
      jobs: storage.jobs.stats(),
      failedJobs: [
        ...storage.jobs.list({ status: "failed", limit: 20 }),
        ...storage.jobs.list({ status: "dead", limit: 20 }),
      ].map((job) => ({
        kind: job.kind,
        key: job.key,
        status: job.status,
        attempts: job.attempts,
        error: job.lastError,
      })),
      leases: storage.jobs.foreignLeases(PHASE1_KIND),
      phase2: {
        watermark,
        newestInput: newest,
        dirty: newest > (watermark ?? 0),
        last: storage.meta.get<Record<string, unknown>>(LAST_RUN_KEY) ?? null,
      },
    };
  }

  close(): void {
    this.opened?.close();
    this.opened = undefined;
  }
}
