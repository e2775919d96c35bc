import type { EmbeddingRepository } from "../memory/repositories/embeddingRepository.js";
import type { GraphRepository } from "../memory/repositories/graphRepository.js";
import type { MemoryRepository } from "../memory/repositories/memoryRepository.js";
import type { SearchRepository } from "../memory/repositories/searchRepository.js";
import type { TranscriptRepository } from "../memory/repositories/transcriptRepository.js";
import type { VectorIndex } from "../memory/vectorIndex.js";
import type { EmbeddingProvider } from "../providers/embeddings/types.js";
import type { Clock } from "../util/clock.js";
import type { RecallConfig } from "./recallConfig.js";
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
