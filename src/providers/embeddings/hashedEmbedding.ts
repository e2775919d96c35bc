import { contentStems, isContentWord, words } from "../../recall/tokenize.js";
import { addFeature, l2Normalize } from "./featureHash.js";
import type { EmbeddingProvider } from "./types.js";

export interface HashedEmbeddingOptions {
  dimensions: number;
}

/** Relative weights of the three feature families; unigrams carry the topic, the rest add robustness. */
const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
/** Spread over all of a word's character n-grams, so long words do not dominate. */
const CHARGRAM_WEIGHT = 0.6;

/**
 * Deterministic embeddings without weights: a signed feature-hashing sketch of
 * - stemmed content-word unigrams (the topic),
 * - adjacent content-word bigrams (a little word order: "support group" vs "group support" differ less
 *   than either differs from unrelated text),
 * - character 3- and 4-grams of each content word with boundary marks (misspellings, compounds and
 *   morphology the stemmer misses: "destress"/"stress", "photography"/"photos"),
 * with sublinear term frequency (1 + ln tf) and L2 normalization, so cosine is a bounded overlap score.
 * It knows no synonyms: it is a robust lexical view that complements BM25, not a semantic model.
 */
export function hashedEmbedding(text: string, dimensions: number): Float32Array {
  const counts = new Map<string, number>();
  const add = (feature: string, weight: number) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
  const stems = contentStems(text);
  for (let i = 0; i < stems.length; i++) {
    add(`u:${stems[i]}`, UNIGRAM_WEIGHT);
    if (i + 1 < stems.length) add(`b:${stems[i]} ${stems[i + 1]}`, BIGRAM_WEIGHT);
  }
  for (const word of words(text)) {
    if (word.length < 4 || !isContentWord(word)) continue;
    const padded = `<${word.replace(/'/g, "")}>`;
    const grams: string[] = [];
    for (let n = 3; n <= 4; n++) for (let i = 0; i + n <= padded.length; i++) grams.push(padded.slice(i, i + n));
    for (const gram of grams) add(`c:${gram}`, CHARGRAM_WEIGHT / grams.length);
  }
  const vector = new Float32Array(dimensions);
  for (const [feature, weight] of counts) {
    // Sublinear tf on the accumulated weight: repeating a word ten times is not ten times the evidence.
    addFeature(vector, feature, weight >= 1 ? 1 + Math.log(weight) : weight);
  }
  return l2Normalize(vector);
}

export function createHashedEmbeddingProvider(options: HashedEmbeddingOptions): EmbeddingProvider {
  return {
    name: "hashed",
    model: `hashed-v1-${options.dimensions}`,
    dimensions: options.dimensions,
    async embed(texts) {
      return texts.map((text) => hashedEmbedding(text, options.dimensions));
    },
    async available() {
      return true;
    },
  };
}
