/** Shapes of the fact pipeline. Facts and entity triples are phase 1's own shapes; this stage stores them. */
import type { ExtractedFact } from "../phase1/types.js";

export { type EntityTriple, type FactType, factTypes } from "../phase1/types.js";

/**
 * A fact with, when known, when it was said (epoch ms): the time of its latest evidence item, else the
 * session's. It dates the memory, so that a later statement about the same subject supersedes it
 * whatever order sessions are extracted in.
 */
export type Fact = ExtractedFact & { occurredAt?: number };

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
  /** "llm", "deterministic", "no-candidates" or "exact-duplicate". */
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
  /** A contradiction detector fired: the proposal is flagged for a person (storage.reviews). */
  reviewNeeded?: boolean;
}

export interface IngestFactsResult {
  outcomes: FactOutcome[];
  graph: { entities: number; relations: number; error?: string };
  warnings: string[];
}
