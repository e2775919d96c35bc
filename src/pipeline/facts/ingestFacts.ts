import type { Database } from "better-sqlite3";
import type { CairnConfig } from "../../config/schema.js";
import type { MemoryStore } from "../../memory/memoryStore.js";
import { normalizeContent } from "../../memory/normalizeContent.js";
import type { RecallResult, RememberInput, RememberOutcome } from "../../memory/types.js";
import type { LlmProvider } from "../../providers/llm/types.js";
import { FACT_PIPELINE_WHO } from "../../store/contracts/memories.js";
import { withWriteTx } from "../../store/tx.js";
import { type Contradiction, detectSyntacticContradiction, sharedTokens } from "./contradiction.js";
import { decideFacts } from "./decideFacts.js";
import { factShape, sameFact } from "./deterministicDecision.js";
import { persistGraph } from "./persistGraph.js";
import { detectSemanticContradiction } from "./semanticContradiction.js";
import type { EntityTriple, Fact, FactDecision, FactOutcome, FactProvenance, IngestFactsResult } from "./types.js";

export interface IngestFactsConfig {
  /** Facts below this confidence are not written (pipeline.minFactConfidenceForWrite). */
  minConfidence: number;
  /** Decide and audit, write nothing to memories (pipeline.shadowMode). */
  shadow: boolean;
  /** Every memory write is refused (pipeline.mutationsFrozen): decide and audit like shadow mode. */
  frozen: boolean;
  /** Apply UPDATE (as a supersession) and DELETE (as a tombstone); otherwise they are audited as blocked. */
  allowUpdateDelete: boolean;
  graphEnabled: boolean;
  /** Candidates recalled per fact. */
  candidates: number;
  /** The model-backed contradiction check (advisory, never blocks a write). */
  semantic: { enabled: boolean; timeoutMs: number };
}

export const defaultIngestFactsConfig: IngestFactsConfig = {
  minConfidence: 0.7,
  shadow: false,
  frozen: false,
  allowUpdateDelete: true,
  graphEnabled: true,
  candidates: 5,
  semantic: { enabled: false, timeoutMs: 45_000 },
};

/** The fact stage's settings from the configuration's `pipeline` section. */
export function ingestConfigOf(pipeline: CairnConfig["pipeline"]): Partial<IngestFactsConfig> {
  return {
    minConfidence: pipeline.minFactConfidenceForWrite,
    shadow: pipeline.shadowMode,
    frozen: pipeline.mutationsFrozen,
    allowUpdateDelete: pipeline.allowUpdateDelete,
    semantic: { enabled: pipeline.semanticContradictionEnabled, timeoutMs: pipeline.semanticContradictionTimeoutMs },
  };
}

const WHO = FACT_PIPELINE_WHO;
/** The semantic check runs only where the statements share this many content words. */
const SEMANTIC_MIN_SHARED = 3;

/** A contradiction found between a fact and one stored memory. */
interface Conflict extends Contradiction {
  memoryId: number;
}

/** A fact past the gates, with everything needed to apply its decision. */
interface Planned {
  fact: Fact;
  content: string;
  candidates: RecallResult[];
  decision: FactDecision;
  conflicts: Conflict[];
}

interface IngestDeps {
  store: MemoryStore;
  db: Database;
  llm?: LlmProvider | null;
  config?: Partial<IngestFactsConfig>;
  now?: () => number;
}

/**
 * Stores the facts of one session. Gates first (empty, low confidence); exact duplicates of a live
 * memory are NONE (found by hash, without a recall); every other fact gets its candidates (recall in
 * its scope), and those without any are ADD without a model call; the rest are decided in ONE model
 * call for the session. Contradictions between a fact and its candidates are flagged for review (never
 * blocking). The session's vectors are computed next, then all its writes and audits go in ONE
 * transaction: no model or embedding call ever runs inside it, and a failure stores none of the
 * session's facts (they stay pending for the next run). Every proposal is audited in
 * memory_history; UPDATE supersedes the old row and DELETE tombstones it, both kept with history.
 */
export async function ingestFacts(
  input: { facts: Fact[]; entities: EntityTriple[]; scope: string; provenance: FactProvenance },
  deps: IngestDeps,
): Promise<IngestFactsResult> {
  const config = { ...defaultIngestFactsConfig, ...deps.config };
  const now = deps.now ?? Date.now;
  const llm = deps.llm ?? null;
  const warnings: string[] = [];
  const ctx = { ...deps, config, now, warnings, input };
  const outcomes: Array<FactOutcome | undefined> = [];
  const passing: Array<{ index: number; fact: Fact; content: string }> = [];
  input.facts.forEach((fact, index) => {
    const content = normalizeContent(fact.content ?? "").storageContent;
    if (content.length === 0)
      outcomes[index] = audit(ctx, { fact, content }, null, "skipped", { reason: "empty_fact_content" });
    else if (fact.confidence < config.minConfidence)
      outcomes[index] = audit(ctx, { fact, content }, null, "skipped", { reason: "low_fact_confidence" });
    else passing.push({ index, fact, content });
  });

  // An exact duplicate of a live memory of the scope is NONE whatever else is stored: found by its
  // hash, it needs no recall (it was checked against its neighbours when it was stored). Facts of the
  // session that say the same thing share one recall.
  // Sessions' fact stages run concurrently: what others store while this one waits for its model is
  // not among its candidates. The mark lets the write see it (lateTwins).
  const mark = deps.store.storage.memories.maxId();
  const twins = exactTwins(deps.store, input.scope, passing);
  const recalls = new Map<string, Promise<RecallResult[]>>();
  const candidatesOf = (content: string) => {
    let recalled = recalls.get(content);
    if (!recalled) {
      recalled = deps.store
        .recall({ query: content, k: config.candidates, scopes: [input.scope], countUsage: false })
        .then((response) => response.results);
      recalls.set(content, recalled);
    }
    return recalled;
  };
  const withCandidates = await Promise.all(
    passing.map(async (p) => ({ ...p, candidates: twins.has(p.index) ? [] : await candidatesOf(p.content) })),
  );
  const decisions = new Map<number, FactDecision>();
  const questions: typeof withCandidates = [];
  for (const p of withCandidates) {
    const twin = twins.get(p.index);
    if (twin !== undefined) {
      decisions.set(p.index, {
        action: "NONE",
        targetId: twin,
        confidence: p.fact.confidence,
        reason: "exact duplicate of a stored memory",
        decidedBy: "exact-duplicate",
      });
    } else if (p.candidates.length === 0) {
      decisions.set(p.index, {
        action: "ADD",
        confidence: p.fact.confidence,
        reason: "no similar memories",
        decidedBy: "no-candidates",
      });
    } else questions.push(p);
  }
  const decided = await decideFacts({ questions, llm, warnings });
  for (const [i, q] of questions.entries()) decisions.set(q.index, decided[i]!);

  const planned = await Promise.all(
    withCandidates.map(async (p): Promise<Planned & { index: number }> => {
      const decision = decisions.get(p.index)!;
      return { ...p, decision, conflicts: await contradictions(p, decision, { llm, config, warnings }) };
    }),
  );
  // Vectors first, outside any transaction; then every write of the session in one transaction.
  const remembering = planned.filter((p) => writesMemory(config, p.decision));
  const staged =
    remembering.length > 0 ? await deps.store.stage(remembering.map((p) => rememberInput(p, input))) : null;
  let graph: IngestFactsResult["graph"] = { entities: 0, relations: 0 };
  withWriteTx(deps.db, () => {
    noteLateTwins(deps.store, { scope: input.scope, mark, planned });
    for (const p of planned) {
      const slot = remembering.indexOf(p);
      outcomes[p.index] = apply(ctx, p, () => staged!.write(slot));
    }
    if (config.graphEnabled && !config.shadow && !config.frozen && input.entities.length > 0) {
      graph = persistGraph({
        db: deps.db,
        graph: deps.store.storage.graph,
        triples: input.entities,
        memoryIds: writtenIds(outcomes),
        now: now(),
      });
    }
  });
  const final = outcomes.filter((o): o is FactOutcome => o !== undefined);
  if (graph.error) warnings.push(`graph not updated: ${graph.error}`);
  return { outcomes: final, graph, warnings };
}

/** The memories the facts were stored as (created, updated or deduped into an existing one). */
function writtenIds(outcomes: Array<FactOutcome | undefined>): number[] {
  return outcomes.flatMap((o) => (o?.memoryId !== undefined && o.status !== "none" ? [o.memoryId] : []));
}

/** Memories another session stored since the mark that a late twin is looked for among. */
const LATE_MEMORIES_LIMIT = 500;

/**
 * A fact decided ADD whose twin another session stored after this one took its candidates (both in
 * flight at once, each recalling before the other wrote) is NONE against that memory: the same
 * near-duplicate rule the decision stage uses without a model. Runs inside the write transaction, so
 * nothing can be stored between the check and the writes.
 */
function noteLateTwins(
  store: MemoryStore,
  session: { scope: string; mark: number; planned: Array<{ content: string; decision: FactDecision; fact: Fact }> },
): void {
  const adds = session.planned.filter((p) => p.decision.action === "ADD");
  if (adds.length === 0) return;
  const late = store.storage.memories
    .liveAfter(session.scope, session.mark, LATE_MEMORIES_LIMIT)
    .map((memory) => ({ id: memory.id, shape: factShape(memory.content) }));
  for (const p of adds) {
    const shape = factShape(p.content);
    const twin = late.find((memory) => sameFact(memory.shape, shape));
    if (!twin) continue;
    p.decision = {
      action: "NONE",
      targetId: twin.id,
      confidence: p.fact.confidence,
      reason: "near duplicate of a memory another session stored meanwhile",
      decidedBy: "deterministic",
    };
  }
}

/** By fact index, the live memory of `scope` that says the fact word for word (same normalized text). */
function exactTwins(
  store: MemoryStore,
  scope: string,
  facts: ReadonlyArray<{ index: number; content: string }>,
): Map<number, number> {
  const twins = new Map<number, number>();
  for (const fact of facts) {
    const id = store.storage.memories.findLiveByHash(scope, normalizeContent(fact.content).contentHash);
    if (id !== undefined) twins.set(fact.index, id);
  }
  return twins;
}

/**
 * The syntactic detector on the fact against the memory an UPDATE or DELETE names, as seed 004 runs
 * it on proposals. Against every candidate it flagged hundreds of pairs that merely share two words
 * and a "no" somewhere ("the worker runs on Deno 1.46 ..." / "... the team did not want a cron job"); a
 * fact that is added is judged against its neighbours by the lifecycle's revise job instead, which
 * reads negation per clause and supersedes or flags. The semantic check, when enabled, on the closest
 * pair the syntactic one left alone that shares enough words: the target, else the best candidate.
 * One model call per fact at most, all of a session's checks at once.
 */
async function contradictions(
  p: { content: string; candidates: RecallResult[] },
  decision: FactDecision,
  deps: { llm: LlmProvider | null; config: IngestFactsConfig; warnings: string[] },
): Promise<Conflict[]> {
  const conflicts: Conflict[] = [];
  const proposal = decision.action === "UPDATE" || decision.action === "DELETE";
  const target = proposal ? p.candidates.find((candidate) => candidate.id === decision.targetId) : undefined;
  const syntactic = target ? detectSyntacticContradiction(p.content, target.content) : null;
  if (target && syntactic) conflicts.push({ ...syntactic, memoryId: target.id });
  const { semantic } = deps.config;
  if (!semantic.enabled || !deps.llm) return conflicts;
  const flagged = new Set(conflicts.map((c) => c.memoryId));
  const ordered =
    decision.targetId === undefined
      ? p.candidates
      : [...p.candidates].sort((a, b) => Number(b.id === decision.targetId) - Number(a.id === decision.targetId));
  const pair = ordered.find(
    (c) =>
      !flagged.has(c.id) &&
      !(decision.action === "NONE" && decision.targetId === c.id) &&
      sharedTokens(p.content, c.content).length >= SEMANTIC_MIN_SHARED,
  );
  if (!pair) return conflicts;
  const found = await detectSemanticContradiction({
    fact: p.content,
    stored: pair.content,
    llm: deps.llm,
    timeoutMs: semantic.timeoutMs,
    warnings: deps.warnings,
  });
  if (found) conflicts.push({ ...found, memoryId: pair.id });
  return conflicts;
}

type Ctx = Required<Omit<IngestDeps, "config" | "llm">> & {
  config: IngestFactsConfig;
  warnings: string[];
  input: { scope: string; provenance: FactProvenance };
};

/**
 * Whether the decision stores the fact as a memory under the modes: ADD and UPDATE (with updates not
 * allowed, the newer fact is still stored and the one it would replace flagged for a person).
 */
function writesMemory(config: IngestFactsConfig, decision: FactDecision): boolean {
  if (config.frozen || config.shadow) return false;
  return decision.action === "ADD" || decision.action === "UPDATE";
}

function rememberInput(p: Planned, input: Ctx["input"]): RememberInput {
  return {
    content: p.content,
    scope: input.scope,
    type: p.fact.type,
    confidence: p.fact.confidence,
    who: WHO,
    why: p.decision.action === "UPDATE" ? "updated-fact" : "extracted-fact",
    ...(input.provenance.ref ? { ref: input.provenance.ref } : {}),
    ...(input.provenance.project ? { project: input.provenance.project } : {}),
    provenance: provenanceOf(p.fact, input.provenance),
    ...(p.fact.occurredAt === undefined ? {} : { occurredAt: p.fact.occurredAt }),
    ...(p.fact.terms === undefined ? {} : { searchTerms: p.fact.terms }),
  };
}

/**
 * Applies one decision and audits it; runs inside the session's write transaction. `remember` writes
 * the fact's staged memory (only called when `writesMemory` said so).
 */
function apply(ctx: Ctx, p: Planned, remember: () => RememberOutcome): FactOutcome {
  const { store, config } = ctx;
  const { decision } = p;
  const out = (status: FactOutcome["status"], extra: Partial<FactOutcome> = {}) =>
    audit(ctx, p, decision, status, extra);
  if (config.frozen) return out("none", { reason: "mutations_frozen", ...target(decision) });
  if (config.shadow) return out("none", { reason: "shadow_mode", ...target(decision) });
  if (decision.action === "NONE") return out("none", target(decision));
  const newerTarget = targetSaidLater(ctx, decision, p.fact);
  if ((decision.action === "UPDATE" || decision.action === "DELETE") && !config.allowUpdateDelete)
    return proposeForReview(ctx, p, { remember, newerTarget, out });
  if (decision.action === "DELETE") {
    if (newerTarget) return out("blocked", { reason: "target_is_newer", ...target(decision) });
    const deleted = store.forget(decision.targetId!, { who: WHO, reason: decision.reason });
    return out(deleted ? "deleted" : "skipped", { ...target(decision), ...(deleted ? {} : { reason: "target_gone" }) });
  }
  const remembered = remember();
  const id = remembered.id;
  if (remembered.status === "skipped" || id === undefined)
    return out("skipped", { reason: remembered.reason ?? "not_stored" });
  if (decision.action === "UPDATE" && decision.targetId !== id && newerTarget) {
    // The statement is older than the memory it would replace: it joins the history, replaced by it.
    const superseded = store.supersede(id, decision.targetId!, { who: WHO, reason: "older_than_target" });
    return out("created", {
      memoryId: id,
      ...target(decision),
      ...(superseded ? { reason: "older_than_target" } : {}),
    });
  }
  if (decision.action === "UPDATE" && decision.targetId !== id) {
    const superseded = store.supersede(decision.targetId!, id, { who: WHO, reason: decision.reason });
    return out(superseded ? "updated" : "created", {
      memoryId: id,
      ...target(decision),
      ...(superseded ? {} : { reason: "target_gone" }),
    });
  }
  if (remembered.status === "deduped") return out("deduped", { memoryId: id, reason: "exact_duplicate" });
  return out("created", { memoryId: id });
}

/**
 * An UPDATE or DELETE with updates and deletes not allowed (`pipeline.allowUpdateDelete: false`): a
 * person decides. An UPDATE stores the newer fact and flags the memory it would replace ("would
 * supersede"), the older of the two by when each was said; a DELETE flags its target with the fact
 * as the proposed text ("would forget"). Nothing the model said is lost, and nothing is replaced.
 */
function proposeForReview(
  ctx: Ctx,
  p: Planned,
  how: {
    remember: () => RememberOutcome;
    newerTarget: boolean;
    out: (status: FactOutcome["status"], extra?: Partial<FactOutcome>) => FactOutcome;
  },
): FactOutcome {
  const { decision } = p;
  const targetId = decision.targetId!;
  const reviews = ctx.store.storage.reviews;
  const now = ctx.now();
  const flagged = new Set(p.conflicts.map((c) => c.memoryId));
  if (decision.action === "DELETE") {
    if (!flagged.has(targetId) && ctx.store.get(targetId)?.deletedAt === null)
      reviews.add({
        memoryId: targetId,
        reason: `would forget: ${decision.reason}`,
        detector: "model",
        proposedContent: p.content,
        now,
      });
    return how.out("blocked", { reason: "update_delete_disabled", ...target(decision) });
  }
  const remembered = how.remember();
  const id = remembered.id;
  if (remembered.status === "skipped" || id === undefined)
    return how.out("skipped", { reason: remembered.reason ?? "not_stored" });
  // A contradiction the detectors found on the pair is flagged with its own reason (audit).
  if (id !== targetId && !flagged.has(targetId) && ctx.store.get(targetId)?.deletedAt === null) {
    const [older, newer] = how.newerTarget ? [id, targetId] : [targetId, id];
    if (!reviews.hasOpen(older, newer))
      reviews.add({
        memoryId: older,
        relatedId: newer,
        reason: `would supersede: ${decision.reason}`,
        detector: "model",
        now,
      });
  }
  return how.out(remembered.status === "deduped" ? "deduped" : "created", {
    memoryId: id,
    ...target(decision),
    reason: "update_delete_disabled",
  });
}

/**
 * Whether the memory a decision would replace or delete was said after the fact. Sessions are not
 * extracted in the order they happened (a first import extracts months of history, eight at a time),
 * and the model sees texts, not dates: an older statement must not undo a newer one.
 */
function targetSaidLater(ctx: Ctx, decision: FactDecision, fact: Fact): boolean {
  if (decision.targetId == null || fact.occurredAt === undefined) return false;
  const stored = ctx.store.get(decision.targetId);
  return stored !== undefined && (stored.occurredAt ?? stored.createdAt) > fact.occurredAt;
}

/**
 * Audits one proposal in memory_history and, when a detector fired, flags it for review: the flag is
 * about the stored memory, related to the new memory when one was written, else carrying the fact.
 */
function audit(
  ctx: Ctx,
  p: { fact: Fact; content: string; conflicts?: Conflict[] },
  decision: FactDecision | null,
  status: FactOutcome["status"],
  extra: Partial<FactOutcome> = {},
): FactOutcome {
  const conflicts = p.conflicts ?? [];
  const outcome: FactOutcome = {
    content: p.content,
    decision,
    status,
    ...extra,
    ...(conflicts.length > 0 ? { reviewNeeded: true } : {}),
  };
  const now = ctx.now();
  const written = status === "created" || status === "updated" || status === "deduped" ? outcome.memoryId : undefined;
  withWriteTx(ctx.db, () => {
    ctx.store.storage.history.add({
      memoryId: outcome.memoryId ?? outcome.targetId ?? null,
      event: `fact_${status}`,
      newContent: p.content,
      who: WHO,
      reason: outcome.reason ?? decision?.reason ?? null,
      metadata: {
        action: decision?.action ?? null,
        confidence: p.fact.confidence,
        type: p.fact.type,
        scope: ctx.input.scope,
        // So that erasing what a session taught (memories.exclude) finds the audits of its facts too.
        ...(ctx.input.provenance.sessionId ? { sessionId: ctx.input.provenance.sessionId } : {}),
        decidedBy: decision?.decidedBy ?? null,
        targetId: outcome.targetId ?? null,
        shadow: ctx.config.shadow,
        ...(conflicts.length > 0
          ? {
              reviewNeeded: true,
              contradictions: conflicts.map((c) => ({ memoryId: c.memoryId, detector: c.detector, reason: c.reason })),
            }
          : {}),
      },
      now,
    });
    for (const conflict of conflicts) {
      if (conflict.memoryId === written) continue;
      ctx.store.storage.reviews.add({
        memoryId: conflict.memoryId,
        reason: conflict.reason,
        detector: conflict.detector,
        ...(written === undefined ? { proposedContent: p.content } : { relatedId: written }),
        now,
      });
    }
  });
  return outcome;
}

function target(decision: FactDecision): Partial<FactOutcome> {
  return decision.targetId === undefined ? {} : { targetId: decision.targetId };
}

/** The item range the evidence spans, within the session. */
function provenanceOf(fact: Fact, provenance: FactProvenance) {
  const items = fact.evidence.filter((n) => Number.isFinite(n));
  return {
    ...(provenance.sessionId ? { sessionId: provenance.sessionId } : {}),
    ...(items.length > 0 ? { itemFrom: Math.min(...items), itemTo: Math.max(...items) } : {}),
  };
}
