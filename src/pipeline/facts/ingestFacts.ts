import type { Database } from "better-sqlite3";
import type { MemoryStore } from "../../memory/memoryStore.js";
import { normalizeContent } from "../../memory/normalizeContent.js";
import type { LlmProvider } from "../../providers/llm/types.js";
import { withWriteTx } from "../../store/tx.js";
import { decideFact } from "./decideFact.js";
import { persistGraph } from "./persistGraph.js";
import type { EntityTriple, Fact, FactDecision, FactOutcome, FactProvenance, IngestFactsResult } from "./types.js";

export interface IngestFactsConfig {
  /** Facts below this confidence are not written (seed: 0.7). */
  minConfidence: number;
  /** Decide and audit, write nothing. */
  shadow: boolean;
  /** Apply UPDATE and DELETE (as tombstones); otherwise they are audited as blocked. */
  allowUpdateDelete: boolean;
  graphEnabled: boolean;
  /** Candidates recalled per fact. */
  candidates: number;
}

export const defaultIngestFactsConfig: IngestFactsConfig = {
  minConfidence: 0.7,
  shadow: false,
  allowUpdateDelete: true,
  graphEnabled: true,
  candidates: 5,
};

const WHO = "fact-pipeline";

/**
 * Stores extracted facts: per fact, recall the top candidates in its scope, decide, pass the gates
 * (confidence, empty content, exact duplicate) and apply. Model and embedding calls happen before
 * each write transaction, never inside. Every proposal is audited in memory_history; UPDATE and
 * DELETE tombstone the old row (kept in history), never delete it. Triples go to the graph last,
 * in their own transaction.
 */
export async function ingestFacts(
  input: { facts: Fact[]; entities: EntityTriple[]; scope: string; provenance: FactProvenance },
  deps: {
    store: MemoryStore;
    db: Database;
    llm?: LlmProvider | null;
    config?: Partial<IngestFactsConfig>;
    now?: () => number;
  },
): Promise<IngestFactsResult> {
  const config = { ...defaultIngestFactsConfig, ...deps.config };
  const now = deps.now ?? Date.now;
  const warnings: string[] = [];
  const outcomes: FactOutcome[] = [];
  for (const fact of input.facts) {
    outcomes.push(await ingestOne(fact, input, { ...deps, config, warnings }));
  }
  const written = outcomes.flatMap((o) => (o.memoryId !== undefined && o.status !== "none" ? [o.memoryId] : []));
  const graph =
    config.graphEnabled && !config.shadow && input.entities.length > 0
      ? persistGraph({
          db: deps.db,
          graph: deps.store.storage.graph,
          triples: input.entities,
          memoryIds: written,
          now: now(),
        })
      : { entities: 0, relations: 0 };
  if (graph.error) warnings.push(`graph not updated: ${graph.error}`);
  return { outcomes, graph, warnings };
}

async function ingestOne(
  fact: Fact,
  input: { scope: string; provenance: FactProvenance },
  deps: { store: MemoryStore; db: Database; llm?: LlmProvider | null; config: IngestFactsConfig; warnings: string[] },
): Promise<FactOutcome> {
  const { store, config } = deps;
  const content = normalizeContent(fact.content ?? "").storageContent;
  const audit = (decision: FactDecision | null, status: FactOutcome["status"], extra: Partial<FactOutcome> = {}) => {
    const outcome: FactOutcome = { content, decision, status, ...extra };
    withWriteTx(deps.db, () =>
      store.storage.history.add({
        memoryId: outcome.memoryId ?? outcome.targetId ?? null,
        event: `fact_${status}`,
        newContent: content,
        who: WHO,
        reason: outcome.reason ?? decision?.reason ?? null,
        metadata: {
          action: decision?.action ?? null,
          confidence: fact.confidence,
          type: fact.type,
          scope: input.scope,
          decidedBy: decision?.decidedBy ?? null,
          targetId: outcome.targetId ?? null,
          shadow: config.shadow,
        },
        now: Date.now(),
      }),
    );
    return outcome;
  };
  if (content.length === 0) return audit(null, "skipped", { reason: "empty_fact_content" });
  if (fact.confidence < config.minConfidence) return audit(null, "skipped", { reason: "low_fact_confidence" });

  const recalled = await store.recall({
    query: content,
    k: config.candidates,
    scopes: [input.scope],
    countUsage: false,
  });
  const decision = await decideFact({
    fact,
    candidates: recalled.results,
    llm: deps.llm ?? null,
    warnings: deps.warnings,
  });
  if (config.shadow) return audit(decision, "none", { reason: "shadow_mode", ...target(decision) });
  if (decision.action === "NONE") return audit(decision, "none", target(decision));
  if ((decision.action === "UPDATE" || decision.action === "DELETE") && !config.allowUpdateDelete) {
    return audit(decision, "blocked", { reason: "update_delete_disabled", ...target(decision) });
  }
  if (decision.action === "DELETE") {
    const deleted = store.forget(decision.targetId!, { who: WHO, reason: decision.reason });
    return audit(decision, deleted ? "deleted" : "skipped", {
      ...target(decision),
      ...(deleted ? {} : { reason: "target_gone" }),
    });
  }
  const remembered = await store.remember({
    content,
    scope: input.scope,
    type: fact.type,
    confidence: fact.confidence,
    who: WHO,
    why: decision.action === "UPDATE" ? "updated-fact" : "extracted-fact",
    ...(input.provenance.ref ? { ref: input.provenance.ref } : {}),
    ...(input.provenance.project ? { project: input.provenance.project } : {}),
    provenance: provenanceOf(fact, input.provenance),
  });
  if (remembered.status === "deduped")
    return audit(decision, "deduped", {
      ...(remembered.id === undefined ? {} : { memoryId: remembered.id }),
      reason: "exact_duplicate",
    });
  if (remembered.status !== "created") return audit(decision, "skipped", { reason: remembered.reason ?? "not_stored" });
  if (decision.action === "UPDATE") {
    store.forget(decision.targetId!, { who: WHO, reason: `superseded by memory ${remembered.id}: ${decision.reason}` });
    return audit(decision, "updated", { memoryId: remembered.id!, ...target(decision) });
  }
  return audit(decision, "created", { memoryId: remembered.id! });
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
