export interface StaleMemory {
  id: number;
  content: string;
  contentHash: string;
  scope: string;
}

/** Float vectors keyed by (content hash, model): identical content in two scopes shares one vector. */
export interface EmbeddingRepo {
  upsert(contentHash: string, model: string, vector: Float32Array, now: number): void;
  getMany(contentHashes: string[], model: string): Map<string, Float32Array>;
  cosinesInSql(contentHashes: string[], model: string, query: Float32Array): Map<string, number>;
  scanScopes(scopes: string[] | "all", model: string): { id: number; vector: Float32Array }[];
  /** Live memories whose vector for `model` is missing. */
  findStale(model: string, limit: number): StaleMemory[];
  countStale(model: string): number;
}
