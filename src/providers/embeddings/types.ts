/** The embedding contract: the memory store and recall depend on this file only. */
export interface EmbeddingProvider {
  readonly name: string;
  /** Identifies the vector space: stored with each vector so a model change marks vectors stale. */
  readonly model: string;
  readonly dimensions: number;
  /** One vector per input text, in order, L2-normalized. `signal` cancels a remote call. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
  available(): Promise<boolean>;
  /**
   * Optional, for providers whose features are words: the query's vector with each word's features
   * scaled by `weightOf(stem)`. Recall passes the store's IDF, so a query is matched on its rare words
   * rather than on the names and dates every memory repeats. Stored vectors stay unweighted.
   */
  embedWeighted?(text: string, weightOf: (stem: string) => number): Float32Array;
}
