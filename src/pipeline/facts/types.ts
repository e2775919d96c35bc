/** Shapes of the fact pipeline (phase 1 emits facts and entity triples; this stage stores them). */

export const factTypes = ["fact", "preference", "decision", "procedural", "semantic"] as const;
export type FactType = (typeof factTypes)[number];

export interface Fact {
  content: string;
  type: FactType;
  confidence: number;
  /** Ids of the session items the fact was drawn from. */
  evidence: number[];
}

export interface EntityTriple {
  source: string;
  relationship: string;
  target: string;
  confidence: number;
}

export interface FactProvenance {
  sessionId?: string;
  ref?: string;
  project?: string;
}

export type FactAction = "ADD" | "UPDATE" | "DELETE" | "NONE";

export interface FactDecision {
  action: FactAction;
  targetId?: number;
  confidence: number;
  reason: string;
  /** "llm", "deterministic" or "no-candidates". */
  decidedBy: string;
}

export type FactOutcomeStatus = "created" | "updated" | "deleted" | "deduped" | "none" | "skipped" | "blocked";

export interface FactOutcome {
  content: string;
  decision: FactDecision | null;
  status: FactOutcomeStatus;
  memoryId?: number;
  targetId?: number;
  reason?: string;
}

export interface IngestFactsResult {
  outcomes: FactOutcome[];
  graph: { entities: number; relations: number; error?: string };
  warnings: string[];
}
