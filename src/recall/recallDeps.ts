import type { RecallConfig } from "../config/recallConfig.js";
import type { EmbeddingProvider } from "../providers/embeddings/types.js";
import type { ContinuityRepo } from "../store/contracts/continuity.js";
import type { EmbeddingRepo } from "../store/contracts/embeddings.js";
import type { GraphRepo } from "../store/contracts/graph.js";
import type { MemoryRepo } from "../store/contracts/memories.js";
import type { ReviewRepo } from "../store/contracts/reviews.js";
import type { TranscriptRepo } from "../store/contracts/transcripts.js";
import type { VectorIndexRepo } from "../store/contracts/vectors.js";
import type { SearchRepository } from "../store/repositories/searchRepository.js";
import type { Clock } from "../util/clock.js";
import type { PredictorScorer } from "./predictor.js";
import type { RerankProvider } from "./rerank.js";

/** What recall reads from. Every SQL statement sits behind one of these repositories. */
export interface RecallDeps {
  memories: MemoryRepo;
  search: SearchRepository;
  embeddings: EmbeddingRepo;
  vectorIndex: VectorIndexRepo;
  graph: GraphRepo;
  transcripts: TranscriptRepo;
  /** Open review flags: a result a flag doubts says so. */
  reviews: Pick<ReviewRepo, "doubtsAbout">;
  provider: EmbeddingProvider;
  config: RecallConfig;
  clock: Clock;
  /** Used when `reranker.kind` is `provider`. */
  reranker?: RerankProvider;
  /** How sessions used each memory (continuity scoring); absent in stores without it. */
  continuity?: Pick<ContinuityRepo, "relevanceOf">;
  /** Used when `predictor.enabled` (seed 004's scorer interface). */
  predictor?: PredictorScorer;
}
