/** Candidate generation for the vector leg: an approximate index the caller rescores exactly. */
export interface VectorIndexRepo {
  readonly dimensions: number;
  /** False when the backend has no vector index; the vector leg then scans the float vectors. */
  readonly enabled: boolean;
  /** Call inside the write transaction that stores the memory; `replace` when it may be indexed already. */
  upsert(memoryId: number, scope: string, vector: Float32Array, replace?: boolean): void;
  remove(memoryId: number): void;
  candidates(query: Float32Array, scopes: string[] | "all", limit: number): number[];
}
