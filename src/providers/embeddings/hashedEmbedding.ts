import { stem } from "../../text/stem.js";
import { isContentWord, words } from "../../text/tokenize.js";
import { addHashedFeature, fnv1a, l2Normalize } from "./featureHash.js";
import type { EmbeddingProvider } from "./types.js";

export interface HashedEmbeddingOptions {
  dimensions: number;
}

/** Relative weights of the three feature families; unigrams carry the topic, the rest add robustness. */
const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
/** Spread over all of a word's character n-grams, so long words do not dominate. */
const CHARGRAM_WEIGHT = 0.6;

/** Distinct seeds keep the three families apart ("art" the word vs "art" the trigram). */
const UNIGRAM_SEED = fnv1a("u:");
const BIGRAM_SEED = fnv1a("b:");
const CHARGRAM_SEED = fnv1a("c:");

interface WordFeatures {
  stem: string;
  stemHash: number;
  charGrams: number[];
}

/** Per-word features are pure functions of the word; remembering them makes bulk writes ~5x faster. */
const wordCache = new Map<string, WordFeatures | null>();
const WORD_CACHE_LIMIT = 200_000;

function featuresOf(word: string): WordFeatures | null {
  const cached = wordCache.get(word);
  if (cached !== undefined) return cached;
  const base = word.endsWith("'s") ? word.slice(0, -2) : word.replace(/'/g, "");
  let features: WordFeatures | null = null;
  if (isContentWord(base)) {
    // Words with digits stay unstemmed, as when these vectors were defined: stored vectors stay valid.
    const stemmed = /[0-9]/.test(base) ? base : stem(base);
    const charGrams: number[] = [];
    if (base.length >= 4) {
      const padded = `<${base}>`;
      for (let n = 3; n <= 4; n++) {
        for (let i = 0; i + n <= padded.length; i++) charGrams.push(fnv1a(padded.slice(i, i + n), CHARGRAM_SEED));
      }
    }
    features = { stem: stemmed, stemHash: fnv1a(stemmed, UNIGRAM_SEED), charGrams };
  }
  if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
  wordCache.set(word, features);
  return features;
}

/**
 * Deterministic embeddings without weights: a signed feature-hashing sketch of
 * - stemmed content-word unigrams (the topic),
 * - adjacent content-word bigrams (a little word order and phrase identity: "support group"),
 * - character 3- and 4-grams of each content word with boundary marks (misspellings, compounds and
 *   morphology the stemmer misses: "destress"/"de-stress", "fesetival"/"festival"),
 * with sublinear term frequency (1 + ln tf) and L2 normalization, so cosine is a bounded overlap score.
 * It knows no synonyms: a robust lexical view that complements BM25, not a semantic model.
 */
export function hashedEmbedding(text: string, dimensions: number): Float32Array {
  const weights = new Map<number, number>();
  const add = (hash: number, weight: number) => weights.set(hash, (weights.get(hash) ?? 0) + weight);
  let previous: WordFeatures | null = null;
  for (const word of words(text)) {
    const f = featuresOf(word);
    if (!f) continue;
    add(f.stemHash, UNIGRAM_WEIGHT);
    if (previous) add(fnv1a(f.stem, fnv1a(previous.stem, BIGRAM_SEED) ^ 0x20), BIGRAM_WEIGHT);
    for (const gram of f.charGrams) add(gram, CHARGRAM_WEIGHT / f.charGrams.length);
    previous = f;
  }
  const vector = new Float32Array(dimensions);
  // Sublinear tf on the accumulated weight: repeating a word ten times is not ten times the evidence.
  for (const [hash, weight] of weights) addHashedFeature(vector, hash, weight >= 1 ? 1 + Math.log(weight) : weight);
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
