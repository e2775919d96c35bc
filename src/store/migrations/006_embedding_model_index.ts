import type { Migration } from "../migration.js";

/**
 * Live memories by the model of their vector. The embedding tracker asks for memories without a
 * vector of the current model; with no index that question read every memory and its embedding row
 * (0.9 s per idle cycle at 1M memories), with it the answer costs what there is to do.
 */
export const embeddingModelIndex: Migration = {
  version: 6,
  name: "embedding_model_index",
  up(db) {
    db.exec("CREATE INDEX idx_memories_embedding ON memories(embedding_model, updated_at) WHERE deleted_at IS NULL;");
  },
};
