import pLimit from "p-limit";
import type { SessionRecord } from "../../collection/types.js";
import type { CairnConfig } from "../../config/schema.js";
import { type LlmProvider, ProviderError } from "../../providers/llm/types.js";
import { guardDeep } from "../../redact/index.js";
import type { TokenBudgetRepo } from "../../store/contracts/budget.js";
import { ageLimitIncluding, eligibilityWindow } from "../../store/eligibilityWindow.js";
import { PHASE1_KIND } from "../../store/queue/jobKinds.js";
import { startLeaseHeartbeat } from "../../store/queue/leaseHeartbeat.js";
import type { Lease } from "../../store/queue/types.js";
import type { EligibilityWindow, PendingBreakdown } from "../../store/repositories/eligibilityRepository.js";
import type { Storage } from "../../store/storage.js";
import { rethrowStoreFault } from "../../store/storeFault.js";
import { withWriteTx } from "../../store/tx.js";
import type { Clock } from "../../util/clock.js";
import { errorMessage } from "../../util/errors.js";
import type { OnProgress } from "../../util/progress.js";
import { buildStage1Prompt, extractSession } from "./extractSession.js";
import { oneTurnApart } from "./oneTurnApart.js";
import { type PreparedSession, PromptsAhead } from "./promptsAhead.js";
import type { SessionItems } from "./sessionItems.js";
import { storedItems } from "./storedItems.js";
import type { Stage1Output } from "./types.js";

export type Phase1Outcome =
  | "succeeded"
  | "succeeded_no_output"
  | "unchanged"
  | "failed"
  | "dead"
  | "lost"
  | "skipped_budget";

export interface Phase1JobReport {
  sessionId: string;
  outcome: Phase1Outcome;
  tokensIn: number | null;
  tokensOut: number | null;
  ms: number;
  error: string | null;
  warnings: string[];
}

export interface DryRunEntry {
  sessionId: string;
  agent: string;
  cwd: string | null;
  items: number;
  tokens: number;
  omitted: number;
  /**
   * The model calls the session takes, in session order: one unless its user messages and compaction
   * summaries do not fit one call's budget. Empty offline (the offline extractor reads every item).
   */
  windows: DryRunWindow[];
}

/** What one stage-1 call of a dry run would hold. */
export interface DryRunWindow {
  itemFrom: number | null;
  itemTo: number | null;
  /** Items sent. */
  entries: number;
  /** Items left out to fit the budget (tool calls and outputs first, never a user message). */
  omitted: number;
  tokens: number;
}

export interface Phase1Report {
  generator: string;
  pending: PendingBreakdown;
  /** The memories.maxRolloutAgeDays that would include every session pending but too old now. */
  includeTooOld?: number;
  /**
   * Eligible sessions this run left for the next one: over memories.maxRolloutsPerStartup, or over
   * extraction.runningCap while other processes hold leases. The next run (or a higher setting) takes them.
   */
  waiting: number;
  jobs: Phase1JobReport[];
  dryRun?: DryRunEntry[];
  /** In a dry run with a model: pipeline.minFactConfidenceForWrite, which the prompt states. */
  minFactConfidence?: number;
  budgetExhausted: boolean;
  /** Facts sent on to the memory store after extraction (outputs processed, memories written). */
  facts?: {
    outputs: number;
    written: number;
    /**
     * Facts under pipeline.minFactConfidenceForWrite: not stored as memories (they stay in the
     * output's raw memory, which consolidation reads). Absent when there were none.
     */
    belowThreshold?: number;
    /** Outputs whose facts could not be stored this run; they stay pending for the next one. */
    failed: number;
    errors: Array<{ sessionId: string; error: string }>;
    /** Why the fact step did not run (`pipeline.enabled` false); the outputs stay pending. */
    skipped?: string;
  };
}

export interface Phase1Deps {
  storage: Storage;
  config: CairnConfig;
  clock: Clock;
  llm: LlmProvider | null;
}

export interface Phase1Options {
  dryRun?: boolean;
  sessionIds?: readonly string[];
  onJob?: (report: Phase1JobReport, done: number, total: number) => void;
  /** Sessions extracted of those this run took: 0 of all once they are claimed, then one by one. */
  onProgress?: OnProgress;
  /**
   * Runs in the session's concurrency slot once its output is stored: the fact stage of that session,
   * so that its decisions overlap with the other sessions' model calls instead of waiting for all.
   */
  afterOutput?: (sessionId: string) => Promise<void>;
}

class LeaseLost extends Error {}

/**
 * Phase 1: claims eligible sessions through the job queue and turns each into a stage-1 output, in
 * parallel under the concurrency cap. Model calls happen outside transactions; each result is stored
 * together with the job's success and the session's compare-and-swap `markProcessed` in one transaction.
 */
export async function runPhase1(deps: Phase1Deps, options: Phase1Options = {}): Promise<Phase1Report> {
  const { storage, config, clock } = deps;
  const now = clock();
  const { eligibility } = storage;
  const window: EligibilityWindow = {
    ...eligibilityWindow(config, now),
    ...(options.sessionIds ? { sessionIds: options.sessionIds } : {}),
  };
  const pending = eligibility.breakdown(window);
  const candidates = eligibility.eligible(window);
  const generator = deps.llm ? `${deps.llm.name}:${deps.llm.model}` : "offline";
  const report: Phase1Report = { generator, pending, waiting: 0, jobs: [], budgetExhausted: false };
  const oldest = pending.tooOld > 0 ? eligibility.bounds(window).oldestTooOld : null;
  if (oldest !== null) report.includeTooOld = ageLimitIncluding(oldest, config, now);

  if (options.dryRun) {
    report.dryRun = candidates.slice(0, config.memories.maxRolloutsPerStartup).flatMap((candidate) => {
      const session = storage.sessions.get(candidate.id);
      if (!session) return [];
      const items = storedItems(storage.items, candidate.id);
      const built = buildStage1Prompt(session, items, renderOptions(config));
      return [
        {
          sessionId: session.id,
          agent: session.agent,
          cwd: session.cwd,
          items: items.count,
          tokens: deps.llm ? built.renderedTokens() : 0,
          omitted: deps.llm ? built.omitted : 0,
          windows: deps.llm
            ? built.windows.map(({ itemFrom, itemTo, entries, omitted, tokens }) => ({
                itemFrom,
                itemTo,
                entries,
                omitted,
                tokens: tokens(),
              }))
            : [],
        },
      ];
    });
    if (deps.llm) report.minFactConfidence = config.pipeline.minFactConfidenceForWrite;
    report.waiting = Math.max(0, pending.eligible - report.dryRun.length);
    return report;
  }

  for (const candidate of candidates) {
    storage.jobs.enqueue({ kind: PHASE1_KIND, key: candidate.id, watermark: candidate.invalidatedAt });
  }
  const leases = storage.jobs.claim({
    kind: PHASE1_KIND,
    limit: config.memories.maxRolloutsPerStartup,
    runningCap: config.extraction.runningCap,
    keys: candidates.map((candidate) => candidate.id),
  });
  report.waiting = Math.max(0, pending.eligible - leases.length);
  const progress = (done: number) =>
    options.onProgress?.({ step: "extracting", unit: "sessions", done, total: leases.length });
  if (leases.length > 0) progress(0);
  const { budget } = storage;
  const limit = pLimit(config.extraction.concurrency);
  // Every claimed lease is kept alive until its job ends, including those still waiting for a slot:
  // with a slow provider, a queued lease would otherwise expire and be taken over by another process.
  const heartbeat = startLeaseHeartbeat({ jobs: storage.jobs, leases, leaseMs: config.queue.leaseSeconds * 1000 });
  const ahead = new PromptsAhead(
    leases.map((lease) => lease.key),
    (key) => prepareSession(deps, key),
  );
  const turn = oneTurnApart();
  let done = 0;
  try {
    await Promise.all(
      leases.map((lease) =>
        limit(async () => {
          await turn();
          const job = await processLease({ deps, lease, budget, report, ahead });
          heartbeat.done(lease);
          if (job.outcome === "succeeded") await options.afterOutput?.(job.sessionId);
          report.jobs.push(job);
          done += 1;
          options.onJob?.(job, done, leases.length);
          progress(done);
        }),
      ),
    );
  } finally {
    heartbeat.stop();
    ahead.stop();
  }
  return report;
}

/** Reads a session and builds its prompt ahead of its turn; nothing when its output is current already. */
function prepareSession(deps: Phase1Deps, key: string): PreparedSession | undefined {
  const { storage, config } = deps;
  const session = storage.sessions.get(key);
  if (!session || session.invalidatedAt === null) return undefined;
  const items = storedItems(storage.items, session.id);
  if (outputIsCurrent(deps, session, items)) return undefined;
  return { session, items, ...(deps.llm ? { prompt: buildStage1Prompt(session, items, renderOptions(config)) } : {}) };
}

/** The stored stage-1 output already covers this version of the session. */
function outputIsCurrent(deps: Phase1Deps, session: SessionRecord, items: SessionItems): boolean {
  const existing = deps.storage.stage1.get(session.id);
  const itemTo = items.lastId ?? session.invalidatedAt;
  return existing !== undefined && existing.sourceUpdatedAt === session.updatedAt && existing.itemTo === itemTo;
}

async function processLease(options: {
  deps: Phase1Deps;
  lease: Lease;
  budget: TokenBudgetRepo;
  report: Phase1Report;
  ahead: PromptsAhead;
}): Promise<Phase1JobReport> {
  const { deps, lease, budget, report, ahead } = options;
  const { storage, config, clock } = deps;
  const started = clock();
  // Its turn came: from here a crash spends this session's attempt. The sessions still waiting for a
  // slot spend nothing, and neither does the one whose prompt is built ahead: if building it kills the
  // process, the session comes back first in line and is built again in a slot, where it counts.
  storage.jobs.start(lease);
  const base = { sessionId: lease.key, tokensIn: null, tokensOut: null, error: null, warnings: [] as string[] };
  const finish = (outcome: Phase1Outcome, extra: Partial<Phase1JobReport> = {}): Phase1JobReport => ({
    ...base,
    outcome,
    ms: clock() - started,
    ...extra,
  });

  const session = storage.sessions.get(lease.key);
  const prepared = ahead.take(lease.key, session);
  const expected = session?.invalidatedAt ?? null;
  if (!session || expected === null) {
    storage.jobs.succeed(lease, { status: "succeeded_no_output" });
    return finish("unchanged");
  }
  const items = prepared?.items ?? storedItems(storage.items, session.id);
  const itemTo = items.lastId ?? expected;
  if (outputIsCurrent(deps, session, items)) {
    withWriteTx(storage.db, () => {
      storage.sessions.markProcessed(session.id, itemTo, expected);
      storage.jobs.succeed(lease, { status: "succeeded" });
    });
    return finish("unchanged");
  }
  if (deps.llm && (report.budgetExhausted || budget.remaining(clock(), config.extraction.dailyTokenBudget) <= 0)) {
    report.budgetExhausted = true;
    storage.jobs.release(lease);
    return finish("skipped_budget", { error: "daily token budget spent; extraction resumes tomorrow" });
  }

  try {
    const extracting = extractSession({
      session,
      items,
      llm: deps.llm,
      render: renderOptions(config),
      ...(prepared?.prompt ? { prompt: prepared.prompt } : {}),
    });
    // The request is out: the next session's prompt is built while this one waits for the model.
    if (deps.llm) ahead.prepareSoon();
    const result = await extracting;
    if (deps.llm) budget.record(clock(), result.tokensIn ?? 0, result.tokensOut ?? 0);
    // Guarded here too, not only by the store, so the output this run holds matches the stored one.
    const extraction = result.extraction ? guardDeep(result.extraction) : null;
    const output: Stage1Output | null = extraction
      ? {
          ...extraction,
          sessionId: session.id,
          projectKey: session.projectKey,
          cwd: session.cwd,
          agent: session.agent,
          sourceUpdatedAt: session.updatedAt,
          itemFrom: items.firstId,
          itemTo,
          generator: report.generator,
          generatedAt: clock(),
          usageCount: 0,
          lastUsage: null,
          selectedForPhase2: false,
          selectedForPhase2SourceUpdatedAt: null,
        }
      : null;
    const status = output ? "succeeded" : "succeeded_no_output";
    withWriteTx(storage.db, () => {
      const usage = {
        tokensIn: result.tokensIn ?? null,
        tokensOut: result.tokensOut ?? null,
        generator: report.generator,
      };
      if (!storage.jobs.succeed(lease, { status, result: usage })) throw new LeaseLost();
      if (output) storage.stage1.upsert(output);
      else storage.stage1.delete(session.id);
      storage.sessions.markProcessed(session.id, itemTo, expected);
    });
    return finish(status, {
      tokensIn: result.tokensIn ?? null,
      tokensOut: result.tokensOut ?? null,
      warnings: result.warnings,
    });
  } catch (error) {
    if (error instanceof LeaseLost) return finish("lost", { error: "lease lost to another worker; result discarded" });
    rethrowStoreFault(error);
    const message = errorMessage(error);
    const outcome = storage.jobs.fail(lease, message, {
      retryable: error instanceof ProviderError ? error.isRetryable : true,
      ...(error instanceof ProviderError && error.retryAfterMs !== undefined
        ? { retryAfterMs: error.retryAfterMs }
        : {}),
    });
    return finish(outcome === "dead" ? "dead" : outcome === "lost" ? "lost" : "failed", { error: message });
  }
}

function renderOptions(config: CairnConfig) {
  return {
    maxInputTokens: config.extraction.maxInputTokens,
    toolOutputMaxTokens: config.extraction.toolOutputMaxTokens,
    minFactConfidence: config.pipeline.minFactConfidenceForWrite,
  };
}
