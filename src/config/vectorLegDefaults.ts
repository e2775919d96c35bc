/**
 * The vector leg's defaults per embedding provider: its weight in the fused score (`recall.alpha`)
 * and the cosine range its model spreads texts over (`recall.vectorRange`), mapped to [0, 1] before
 * fusing. Each model family puts unrelated texts at its own typical cosine: about 0 for the hashed
 * sketch and the word vectors, 0.1 to 0.2 for MiniLM-style sentence models and OpenAI's
 * text-embedding-3, 0.3 to 0.45 for nomic-embed-text. Without the rescaling a raised weight would mostly
 * add that constant to every candidate: the floor makes an unrelated text count 0, the ceiling (a
 * close paraphrase) count 1.
 *
 * hashed and wordvec are measured (docs/experiments/coding-recall-semantic.md); the model providers'
 * figures are each default model's typical cosines for unrelated and paraphrased sentences, not
 * measured on cairn's benchmarks (no model is reachable where they run): docs/embeddings.md.
 */
export interface VectorLegDefaults {
  alpha: number;
  floor: number;
  ceiling: number;
}

export const vectorLegDefaults = {
  // Re-encodes the words the keyword leg already scores: a small share, for typos and word forms.
  hashed: { alpha: 0.15, floor: 0, ceiling: 1 },
  // Evidence the keyword leg lacks (jest and vitest): figures hold level from 0.2 to 0.5.
  wordvec: { alpha: 0.3, floor: 0, ceiling: 1 },
  // text-embedding-3-small.
  openai: { alpha: 0.4, floor: 0.15, ceiling: 0.75 },
  // nomic-embed-text.
  ollama: { alpha: 0.4, floor: 0.35, ceiling: 0.85 },
  // all-MiniLM-L6-v2 (src/providers/embeddings/defaults.ts).
  transformers: { alpha: 0.4, floor: 0.1, ceiling: 0.75 },
} as const satisfies Record<string, VectorLegDefaults>;

/** The defaults for a provider name; an unknown name (the schema reports it) gets the hashed ones. */
export function vectorLegDefaultsFor(provider: string): VectorLegDefaults {
  return (vectorLegDefaults as Record<string, VectorLegDefaults>)[provider] ?? vectorLegDefaults.hashed;
}
