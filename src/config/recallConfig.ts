import { z } from "zod";
import { lazily } from "../util/lazily.js";
import { int, num } from "./boundedNumbers.js";
import { recallProfileNames, withProfile } from "./recallProfiles.js";

/**
 * Every recall constant with its default and range. Defaults marked "seed" are seed 004's; the others
 * were chosen by measurement (docs/experiments/locomo-recall.md). These defaults are the conversation
 * profile's; a profile's own settings go beneath what the user set (recallSchema below).
 */
const recallSettingsSchema = lazily(() =>
  z
    .object({
      /** Which ranking stages run and the leg settings that differ (src/config/recallProfiles.ts). */
      profile: z.enum(recallProfileNames).default("agent"),
      defaultK: int(1, 200, 10),
      maxK: int(1, 500, 50),
      /**
       * Weight of the vector leg in `alpha * vector + (1 - alpha) * bm25`. Unset in a config file, it
       * follows the embedding provider (src/config/vectorLegDefaults.ts); 0.15 is the hashed one's.
       */
      alpha: num(0, 1, 0.15),
      /**
       * The cosines the embedding model gives unrelated texts (`floor`, counts 0) and close paraphrases
       * (`ceiling`, counts 1): the vector leg is rescaled to that range before fusing. Unset, it follows
       * the embedding provider (vectorLegDefaults.ts); 0 to 1, no rescaling, is the hashed one's.
       */
      vectorRange: z
        .object({ floor: num(0, 0.95, 0), ceiling: num(0.05, 1, 1) })
        .strict()
        .refine((range) => range.ceiling > range.floor, { message: "ceiling must be above floor" })
        .prefault({}),
      /** seed: results below this calibrated score are dropped. */
      minScore: num(0, 1, 0.1),
      /**
       * Query words that no memory in the searched scopes contains count in the calibration's ideal
       * score as the rarest word, so a question memory cannot answer scores low (src/recall/keywordLeg.ts).
       */
      unfoundWords: z.boolean().default(false),
      /** Candidates taken from each leg before fusion. */
      candidatePool: int(10, 2000, 50),
      /** Binary-KNN candidates rescored with exact vectors in the vector leg. */
      vectorCandidates: int(10, 5000, 50),
      /** The keyword query keeps its rarest words while their summed document frequencies fit this. */
      postingBudget: int(100, 100_000_000, 5000),
      /**
       * Search each query word in every way software people write it ("e2e" / "end-to-end", "deps" /
       * "dependencies", "linter" / "lint"): the table in src/text/codeVocabulary.ts.
       */
      codeVocabulary: z.boolean().default(true),
      /**
       * Contextual indexing: weights of the text of the item just before and just after each memory in
       * its session, indexed with it. 0 leaves that column out. The item before weighs more: a reply is
       * about what was just said to it.
       */
      contextIndex: z
        .object({
          before: num(0, 1, 0.5),
          after: num(0, 1, 0.2),
        })
        .strict()
        .prefault({}),
      /**
       * Time-aware matching: calendar tokens of the dates a query names are searched in two columns,
       * the day each memory was said (`occurred`, from `occurredAt`) and the times its content
       * mentions (`mentioned`: "yesterday" resolved against `occurredAt`, "8 May" normalized). 0 leaves
       * that column out.
       */
      timeIndex: z
        .object({
          occurred: num(0, 2, 1),
          mentioned: num(0, 2, 1),
          /** Search the words that spelled a query's dates ("may", "2023") only as calendar tokens. */
          replaceWords: z.boolean().default(true),
        })
        .strict()
        .prefault({}),
      /**
       * Concept indexing: the WordNet category words of a memory's nouns ("swimming" -> sport,
       * recreation, activity) are indexed in their own column, so a question naming the category finds
       * the memory that names only the instance. `depth`: hypernym steps indexed at write time (0: none;
       * it applies to memories written after a change). `weight`: that column's BM25 weight at recall
       * (0 leaves it out).
       */
      conceptIndex: z
        .object({
          depth: int(0, 3, 2),
          weight: num(0, 1, 0.4),
          /**
           * Times a query's plural category words ("what activities ...") and the category it asks for a
           * kind of ("what kind of art ...") are searched again in the concept column alone, at its
           * weight, so the memories naming an instance rank higher (0: off).
           */
          categoryRepeat: int(0, 5, 1),
          /**
           * A plural word counts as a category when its singular is the category word of at least this
           * many of the lexicon's nouns within `depth` steps ("activity" 416, "pottery" 2).
           */
          categoryMinBreadth: int(1, 100_000, 3),
        })
        .strict()
        .prefault({}),
      /**
       * Search terms a model wrote at extraction (aliases, abbreviations, the general category), indexed
       * in their own column. `weight`: that column's BM25 weight (0 leaves it out). Below the text's 1.0:
       * a memory that says a word outranks one that was only tagged with it.
       */
      searchTerms: z
        .object({
          weight: num(0, 1, 0.6),
        })
        .strict()
        .prefault({}),
      /** Memories from adjacent items of the same session lend part of their score (conversation context). */
      context: z
        .object({
          enabled: z.boolean().default(true),
          window: int(1, 10, 3),
          weight: num(0, 1, 0.7),
          /** Each further item away lends this fraction of what the previous distance lent. */
          decay: num(0, 1, 0.8),
        })
        .strict()
        .prefault({}),
      /**
       * When the query names the author (`who`) of some memories, others' memories are multiplied by
       * `penalty`, and the named author's memories that speak only to someone else ("you", no "I") by
       * `addressedPenalty` (1: off).
       */
      author: z
        .object({
          enabled: z.boolean().default(true),
          penalty: num(0, 1, 0.6),
          addressedPenalty: num(0, 1, 0.7),
        })
        .strict()
        .prefault({}),
      /**
       * A question that asks when ("When did Jane move?", "What year ...") is answered by a memory that
       * mentions a time other than the moment it was said ("yesterday", "last May"): memories without
       * such a mention are multiplied by `penalty` (1: off).
       */
      timeAnswer: z
        .object({
          penalty: num(0, 1, 0.7),
        })
        .strict()
        .prefault({}),
      /**
       * For questions that ask for a list ("What activities ..."), memories shorter than `words` are
       * multiplied by `(length / words) ^ exponent` (0: off; src/recall/listLengthPrior.ts).
       */
      listLength: z
        .object({
          words: int(1, 1000, 40),
          exponent: num(0, 2, 0.3),
        })
        .strict()
        .prefault({}),
      /**
       * Of two memories near the top that are about the same subject (same scope, Dice coefficient of
       * their stemmed content words at least `minOverlap`, plain and IDF-weighted; words with a digit,
       * the values, left out), the newer takes the better place (src/recall/stages/recencyStage.ts).
       * `window`: how many leading candidates are compared (at least k). `flagged`: two memories an
       * open review flag joins (the detectors read them as one subject, a person has not decided yet)
       * are such a pair too (src/recall/newerAboveDoubted.ts); on in the `agent` profile.
       */
      recency: z
        .object({
          enabled: z.boolean().default(true),
          flagged: z.boolean().default(false),
          minOverlap: num(0, 1, 0.5),
          window: int(2, 100, 20),
        })
        .strict()
        .prefault({}),
      /**
       * Continuity scoring's signal (src/recall/stages/continuityStage.ts): memories that sessions given
       * them used rank up to `weight / 2` higher, unused ones lower. On in the `agent` profile.
       */
      continuity: z
        .object({ enabled: z.boolean().default(false), weight: num(0, 1, 0.2) })
        .strict()
        .prefault({}),
      /**
       * seed 004's predictor: a scorer given by the library caller re-ranks the head (`topN`) within
       * `timeoutMs`, fused with `weight`; off by default, and cairn ships no trained scorer.
       */
      predictor: z
        .object({
          enabled: z.boolean().default(false),
          topN: int(1, 200, 20),
          timeoutMs: int(10, 30_000, 2000),
          weight: num(0, 1, 0.3),
        })
        .strict()
        .prefault({}),
      graph: z
        .object({
          /**
           * seed default: on. Off here: with entities from the inline regex linker (every capitalized
           * word) the boost lifts every memory naming the query's subject, relevant or not
           * (docs/experiments/locomo-recall.md). Turn it on when entities come from phase-1 triples.
           */
          enabled: z.boolean().default(false),
          /** seed: boosted score = (1 - w) * score + w. */
          boostWeight: num(0, 1, 0.15),
          boostTimeoutMs: int(50, 5000, 500),
          maxEntities: int(1, 200, 20),
          maxNeighbors: int(0, 500, 50),
          maxMemories: int(1, 5000, 200),
        })
        .strict()
        .prefault({}),
      reranker: z
        .object({
          enabled: z.boolean().default(false),
          /** `embedding`: 0.7 * score + 0.3 * cosine with stored vectors; `provider`: a supplied reranker. */
          kind: z.enum(["none", "embedding", "provider"]).default("embedding"),
          topN: int(1, 100, 20),
          timeoutMs: int(100, 30_000, 2000),
          originalWeight: num(0, 1, 0.7),
        })
        .strict()
        .prefault({}),
      dampening: z
        .object({
          gravityEnabled: z.boolean().default(true),
          hubEnabled: z.boolean().default(true),
          resolutionEnabled: z.boolean().default(true),
          hubPercentile: num(0, 1, 0.9),
          hubPenalty: num(0, 1, 0.7),
          gravityPenalty: num(0, 1, 0.5),
          /** Only scores above this are checked for zero query overlap. */
          gravityThreshold: num(0, 1, 0.3),
          resolutionBoost: num(1, 3, 1.2),
        })
        .strict()
        .prefault({}),
      hints: z
        .object({
          enabled: z.boolean().default(false),
          max: int(1, 20, 5),
          timeoutMs: int(5000, 300_000, 45_000),
          /** Memories per model call: a smaller batch lets a slow local model answer within `timeoutMs`. */
          batchSize: int(1, 20, 20),
          pollMs: int(1000, 60_000, 5000),
          /** A memory found only through a hint never scores above this. */
          hintOnlyCap: num(0, 1, 0.75),
        })
        .strict()
        .prefault({}),
      embeddingTracker: z
        .object({
          enabled: z.boolean().default(true),
          pollMs: int(1000, 60_000, 5000),
          batchSize: int(1, 20, 8),
        })
        .strict()
        .prefault({}),
    })
    .strict(),
);

type RecallInput = z.input<ReturnType<typeof recallSettingsSchema>>;

/** The `recall` section: the profile's settings (recall.profile, default agent) beneath the ones set. */
export const recallConfigSchema = lazily(() =>
  z.preprocess((raw: RecallInput | undefined) => withProfile(raw) as RecallInput, recallSettingsSchema()),
);

export type RecallConfig = z.infer<ReturnType<typeof recallSettingsSchema>>;

/** The defaults, for callers (tests, benchmarks) that build a store without a config file. */
export function defaultRecallConfig(overrides: RecallInput = {}): RecallConfig {
  return recallConfigSchema().parse(overrides);
}

/**
 * Recall settings that were measured, found no better than without them, and removed (the figures
 * are in docs/experiments/locomo-recall.md). A config file that still sets one keeps loading.
 */
export const RETIRED_RECALL_KEYS = ["vectorIdf", "entityWeight", "feedback"] as const;

/**
 * The config tree without retired recall keys, and the dotted names of those it set (for a warning).
 * The tree passed in is not changed.
 */
export function withoutRetiredRecallKeys(tree: unknown): { tree: unknown; retired: string[] } {
  const recall = (tree as { recall?: unknown } | null | undefined)?.recall;
  if (recall === null || typeof recall !== "object" || Array.isArray(recall)) return { tree, retired: [] };
  const retired = RETIRED_RECALL_KEYS.filter((key) => key in recall);
  if (retired.length === 0) return { tree, retired: [] };
  const kept = Object.fromEntries(
    Object.entries(recall).filter(([key]) => !(RETIRED_RECALL_KEYS as readonly string[]).includes(key)),
  );
  return { tree: { ...(tree as object), recall: kept }, retired: retired.map((key) => `recall.${key}`) };
}
