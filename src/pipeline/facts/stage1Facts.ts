import type { Database } from "better-sqlite3";
import type { MemoryStore } from "../../memory/memoryStore.js";
import { NO_PROJECT_SCOPE } from "../../memory/scopes.js";
import type { LlmProvider } from "../../providers/llm/types.js";
import { GLOBAL_WORKSPACE } from "../../workspace/workspacePaths.js";
import { isGlobalFact } from "../phase1/factScope.js";
import type { Stage1Output } from "../phase1/types.js";
import { type IngestFactsConfig, ingestFacts } from "./ingestFacts.js";
import type { Fact } from "./types.js";

/**
 * Sends a stage-1 output's facts into the memory store. A fact the model scoped "global" lands in the
 * global scope, everything else in the session's project; facts without a scope (offline extraction,
 * answers stored before the field) go global only when they are a preference stated as the user's
 * habit beyond one repository ("in all my projects", "I always ..."). Runs after the stage-1 transaction, never inside one.
 * Evidence the session does not hold (an id the model made up, an item removed since) is dropped
 * rather than pointing at another session's items.
 */
export async function ingestStage1Facts(
  output: Stage1Output,
  deps: {
    store: MemoryStore;
    db: Database;
    llm: LlmProvider | null;
    now: () => number;
    /** The modes and thresholds (ingestConfigOf(config.pipeline)). */
    config?: Partial<IngestFactsConfig>;
  },
): Promise<{ written: number; belowThreshold: number }> {
  const project = output.projectKey ?? NO_PROJECT_SCOPE;
  // The extractor cites store-wide item ids; a memory's provenance holds positions within its session.
  const positions = deps.store.storage.items.positions(
    output.sessionId,
    output.facts.flatMap((fact) => fact.evidence),
  );
  const times = deps.store.storage.items.times(
    output.sessionId,
    output.facts.flatMap((fact) => fact.evidence),
  );
  const sessionTime = deps.store.storage.sessions.get(output.sessionId)?.updatedAt;
  const facts: Fact[] = output.facts.map((fact) => {
    const said = fact.evidence.flatMap((id) => times.get(id) ?? []);
    const stated = said.length > 0 ? Math.max(...said) : sessionTime;
    // Nothing was said after now: a transcript from a clock that ran ahead would otherwise make its
    // facts newer than everything said until that time, replacing what is current.
    const occurredAt = stated === undefined ? undefined : Math.min(stated, deps.now());
    return {
      ...fact,
      evidence: fact.evidence.flatMap((id) => {
        const seq = positions.get(id);
        return seq === undefined ? [] : [seq];
      }),
      ...(occurredAt === undefined ? {} : { occurredAt }),
    };
  });
  const isUserLevel = (fact: Stage1Output["facts"][number]) => isGlobalFact(fact);
  const groups = [
    { scope: GLOBAL_WORKSPACE, facts: facts.filter(isUserLevel), entities: [] },
    { scope: project, facts: facts.filter((fact) => !isUserLevel(fact)), entities: output.entities },
  ];
  let written = 0;
  let belowThreshold = 0;
  for (const group of groups) {
    if (group.facts.length === 0 && group.entities.length === 0) continue;
    const result = await ingestFacts(
      {
        facts: group.facts,
        entities: group.entities,
        scope: group.scope,
        provenance: { sessionId: output.sessionId, ...(output.projectKey ? { project: output.projectKey } : {}) },
      },
      { store: deps.store, db: deps.db, llm: deps.llm, now: deps.now, ...(deps.config ? { config: deps.config } : {}) },
    );
    written += result.outcomes.filter((outcome) => outcome.status === "created" || outcome.status === "updated").length;
    belowThreshold += result.outcomes.filter((outcome) => outcome.reason === "low_fact_confidence").length;
  }
  return { written, belowThreshold };
}
