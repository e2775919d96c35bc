import type { RecallConfig } from "../config/recallConfig.js";
import type { RecallRequest, RecallResponse } from "../memory/types.js";
import type { EmbeddingProvider } from "../providers/embeddings/types.js";
import type { Storage } from "../store/storage.js";
import { withWriteTx } from "../store/tx.js";
import { type Clock, systemClock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import { hybridRecall } from "./hybridRecall.js";
import type { PredictorScorer } from "./predictor.js";
import type { RecallDeps } from "./recallDeps.js";
import type { RerankProvider } from "./rerank.js";

export interface CreateRecallOptions {
  storage: Storage;
  provider: EmbeddingProvider;
  /** The `recall` section of the configuration. */
  config: RecallConfig;
  clock?: Clock;
  /** The reranker used when `reranker.kind` is `provider`. */
  reranker?: RerankProvider;
  /** The scorer used when `predictor.enabled` (none ships with cairn). */
  predictor?: PredictorScorer;
  /** Called with the ids recall returned, after usage counters were bumped (not for `countUsage: false`). */
  onHit?: (ids: number[]) => void;
}

/**
 * Recall over the store: hybrid ranking, then usage counters for the hits (unless the request says
 * not to). A failed counter write (a read-only or full store) becomes a warning, never a failed recall.
 */
export function createRecall(options: CreateRecallOptions): (request: RecallRequest) => Promise<RecallResponse> {
  const { storage } = options;
  const clock = options.clock ?? systemClock;
  const deps: RecallDeps = {
    memories: storage.memories,
    search: storage.search,
    embeddings: storage.embeddings,
    vectorIndex: storage.vectors,
    graph: storage.graph,
    transcripts: storage.transcripts,
    reviews: storage.reviews,
    provider: options.provider,
    config: options.config,
    clock,
    continuity: storage.continuity,
    ...(options.reranker ? { reranker: options.reranker } : {}),
    ...(options.predictor ? { predictor: options.predictor } : {}),
  };
  return async (request) => {
    const response = await hybridRecall(deps, request);
    const ids = response.results.map((r) => r.id);
    // A lookup the write path makes for itself (countUsage false) is not a hit: no counters, no feedback.
    if (request.countUsage === false) return response;
    if (ids.length > 0) {
      try {
        withWriteTx(storage.db, () => storage.memories.bumpUsage(ids, clock()));
      } catch (error) {
        response.warnings.push(`usage counters not updated: ${errorMessage(error)}`);
      }
      // An internal lookup (the fact stage's candidates) is not use: it confirms nothing.
      options.onHit?.(ids);
    }
    return response;
  };
}
