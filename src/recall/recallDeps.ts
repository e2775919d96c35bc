import type { RecallConfig } from "../config/recallConfig.js";
import type { EmbeddingProvider } from "../providers/embeddings/types.js";
import type { EmbeddingRepository } from "../store/repositories/embeddingRepository.js";
import type { GraphRepository } from "../store/repositories/graphRepository.js";
import type { MemoryRepository } from "../store/repositories/memoryRepository.js";
import type { SearchRepository } from "../store/repositories/searchRepository.js";
import type { TranscriptRepository } from "../store/repositories/transcriptRepository.js";
import type { VectorIndex } from "../store/vectorIndex.js";
import type { Clock } from "../util/clock.js";
import type { RerankProvider } from "./rerank.js";

/** What recall reads from. Every SQL statement sits behind one of these repositories. */
export interface RecallDeps {
  memories: MemoryRepository;
  search: SearchRepository;
  embeddings: EmbeddingRepository;
  vectorIndex: VectorIndex;
  graph: GraphRepository;
  transcripts: TranscriptRepository;
  provider: EmbeddingProvider;
  config: RecallConfig;
  clock: Clock;
  /** Used when `reranker.kind` is `provider`. */
  reranker?: RerankProvider;
}
