/** The embedding contract: the memory store and recall depend on this file only. */
export interface EmbeddingProvider {
  readonly name: string;
  /** Identifies the vector space: stored with each vector so a model change marks vectors stale. */
  readonly model: string;
  readonly dimensions: number;
  /** One vector per input text, in order, L2-normalized. `signal` cancels a remote call. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
  available(): Promise<boolean>;
  /** For `cairn doctor`: what the provider loaded, or why it cannot embed and what to do. Never throws. */
  status?(): Promise<EmbeddingStatus>;
}

export interface EmbeddingStatus {
  ready: boolean;
  /** One line: the model (and its file, for a local one), or the problem and the fix. */
  detail: string;
}
