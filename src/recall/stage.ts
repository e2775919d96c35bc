import type { RecallRequest } from "../memory/types.js";
import type { Candidate } from "./candidate.js";
import type { AnalyzedQuery } from "./queryAnalyzer.js";
import type { RecallDeps } from "./recallDeps.js";

/** What every ranking stage may read about the recall in progress. */
export interface RecallContext {
  readonly deps: RecallDeps;
  readonly request: RecallRequest;
  readonly query: AnalyzedQuery;
  /** How many results the caller gets. */
  readonly k: number;
  /** Undefined when the vector leg is off for this recall (provider failed, empty vector). */
  readonly queryVector: Float32Array | undefined;
  /** Query words that name the `who` of stored memories (left out of the keyword query). */
  readonly authorWords: string[];
  /** Non-fatal degradations reported with the results. */
  readonly warnings: string[];
  /**
   * New candidates for memories a stage brings in (a conversation neighbour that matched nothing):
   * live rows of the wanted scopes only, scored on both legs as the retrieved ones were, then weighed
   * by every stage that already ran and has `onAdmit`.
   */
  admit(ids: number[]): Candidate[];
}

/**
 * One step of the ranking: candidates in, candidates out, in the order `recallStages` lists them.
 * A stage may change scores in place, drop candidates, add them (through `ctx.admit`) or reorder.
 * Candidate rows are slim: a stage that reads their text says which ones in `needsContent`, and the
 * runner loads it first.
 */
export interface RecallStage {
  readonly name: string;
  /** The candidates whose `content` `apply` reads; loaded before it runs. */
  needsContent?(ctx: RecallContext, candidates: Candidate[]): Candidate[];
  apply(ctx: RecallContext, candidates: Candidate[]): Candidate[] | Promise<Candidate[]>;
  /**
   * For stages that weigh each memory on its own evidence: applied to candidates a later stage
   * admits, so they are weighed as the ones that were there when this stage ran.
   */
  onAdmit?(ctx: RecallContext, admitted: Candidate[]): void;
}
