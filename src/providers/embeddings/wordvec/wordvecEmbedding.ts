import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isContentWord, words } from "../../../text/tokenize.js";
import { CairnError, errorMessage } from "../../../util/errors.js";
import { ProviderError } from "../../providerError.js";
import { l2Normalize } from "../featureHash.js";
import { hashedEmbedding } from "../hashedEmbedding.js";
import type { EmbeddingProvider } from "../types.js";
import { WordVectorFile } from "./wordVectorFile.js";

/** The word vectors shipped with cairn, built by scripts/build-word-vectors.ts (sources.tsv beside it). */
export const shippedWordVectorsPath = join(dirname(fileURLToPath(import.meta.url)), "wordvec.bin");

/**
 * SIF's smoothing (Arora et al., 2017): a word of probability p weighs a / (a + p), so "use", "run" and
 * "file" count a fraction of "vitest" or "migration". The usual range is 1e-4..1e-3.
 */
const SIF_A = 1e-3;

/**
 * A text's vector: the SIF-weighted mean of its content words' vectors (each distinct word once),
 * L2-normalized. Words the file does not hold are skipped; a text with none gets the zero vector,
 * which is no evidence either way (cosine 0).
 */
export function wordvecEmbedding(text: string, file: WordVectorFile): Float32Array {
  const vector = new Float32Array(file.dimensions);
  const seen = new Set<string>();
  for (const word of words(text)) {
    const base = word.endsWith("'s") ? word.slice(0, -2) : word.replace(/'/g, "");
    if (!isContentWord(base) || seen.has(base)) continue;
    seen.add(base);
    const found = file.lookup(base);
    if (!found) continue;
    const weight = SIF_A / (SIF_A + found.probability);
    for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) + weight * (found.vector[i] ?? 0);
  }
  return l2Normalize(vector);
}

export interface WordvecProviderOptions {
  /** The word-vector file; the shipped one by default. */
  path?: string;
  /** The width of the vectors: the word vectors' own, then a hashed sketch in the rest. */
  dimensions: number;
}

/**
 * The word vectors' share of the cosine. The rest goes to the hashed sketch of the same text
 * (hashedEmbedding.ts), which keeps what word vectors lack: words outside their vocabulary (project
 * names, file names, error codes), misspellings and exact phrase identity. Both parts are unit vectors
 * scaled by the square roots of their shares, so the cosine of two texts is
 * share * wordCosine + (1 - share) * hashedCosine. An even share measured best on the coding set
 * (docs/experiments/coding-recall-semantic.md).
 */
const WORD_SHARE = 0.5;

/** Offline semantic embeddings from shipped word vectors: no service, no weights to download. */
export function createWordvecEmbeddingProvider(options: WordvecProviderOptions): EmbeddingProvider {
  const file = new WordVectorFile(options.path ?? shippedWordVectorsPath);
  const { dimensions } = options;
  const embed = (text: string): Float32Array => {
    const words = wordvecEmbedding(text, file);
    if (words.length >= dimensions) {
      throw new CairnError(
        "config_invalid",
        `embeddings.dimensions (${dimensions}) must exceed the word vectors' ${words.length} for provider wordvec: set it to 384`,
      );
    }
    const hashed = hashedEmbedding(text, dimensions - words.length);
    const out = new Float32Array(dimensions);
    const a = Math.sqrt(WORD_SHARE);
    const b = Math.sqrt(1 - WORD_SHARE);
    for (let i = 0; i < words.length; i++) out[i] = a * (words[i] ?? 0);
    for (let i = 0; i < hashed.length; i++) out[words.length + i] = b * (hashed[i] ?? 0);
    return l2Normalize(out);
  };
  return {
    name: "wordvec",
    get model() {
      return `wordvec-${file.digest}-${dimensions}`;
    },
    dimensions,
    async embed(texts) {
      try {
        return texts.map(embed);
      } catch (error) {
        // Every text would fail the same way: a config error naming the provider, as the others give.
        throw new ProviderError({
          provider: "wordvec",
          kind: "config",
          message: `wordvec: ${errorMessage(error)}`,
          isRetryable: false,
          cause: error,
        });
      }
    },
    async available() {
      // A missing or damaged file, or too narrow a width, fails every text: the provider is not usable.
      try {
        embed("available");
        return true;
      } catch {
        return false;
      }
    },
  };
}
