import { z } from "zod";
import { globProblem } from "../project/exclusion.js";
import { lazily } from "../util/lazily.js";
import { int, num } from "./boundedNumbers.js";
import { withDerivedDefaults } from "./derivedDefaults.js";
import { recallConfigSchema } from "./recallConfig.js";
import { sourcesConfigSchema } from "./sourcesConfig.js";
import { workersConfigSchema } from "./workersConfig.js";

export const sessionKinds = ["interactive", "exec", "subagent", "internal"] as const;
export const llmProviderNames = [
  "auto",
  "openai",
  "anthropic",
  "ollama",
  "claude-cli",
  "codex-cli",
  "offline",
] as const;
export const embeddingProviderNames = ["hashed", "wordvec", "openai", "ollama", "transformers"] as const;
/**
 * The weight precisions of the `transformers` provider: those transformers.js v3 and v4 both load
 * (https://huggingface.co/docs/transformers.js/guides/dtypes).
 */
export const embeddingDtypes = ["fp32", "fp16", "q8", "int8", "uint8", "q4", "bnb4", "q4f16"] as const;
/** The `transformers` settings' defaults, for callers that build a provider without a config file. */
export const transformersDefaults = { dtype: "q8", batchSize: 16 } as const;

const llmRole = () =>
  z
    .object({
      provider: z.enum(llmProviderNames).default("auto"),
      model: z.string().optional(),
      baseUrl: z.string().optional(),
      apiKey: z.string().optional(),
      timeoutMs: int(1_000, 3_600_000, 120_000),
    })
    .default({ provider: "auto", timeoutMs: 120_000 });

/** The server token guards every memory over the network: 32 characters of hex carry 128 bits. */
export const MIN_TOKEN_LENGTH = 32;

/** Why a server token is too weak to guard the API, or undefined when it is acceptable. */
export function weakTokenProblem(token: string): string | undefined {
  // Length alone lets "aaaa..." through; a random token of 32+ characters has far more than 8 distinct ones.
  if (token.length >= MIN_TOKEN_LENGTH && new Set(token).size >= 8) return undefined;
  return `server.token is too weak (${token.length < MIN_TOKEN_LENGTH ? `${token.length} characters, at least ${MIN_TOKEN_LENGTH} needed` : "too few distinct characters"}); make one with: cairn config set server.token "$(openssl rand -hex 32)"`;
}

/**
 * Every setting, its default and its allowed range. Unknown keys are rejected so typos surface. Built
 * on first use (src/util/lazily.ts): a command that reads the config from its cache never needs it.
 */
export const configObjectSchema = lazily(() =>
  z
    .object({
      memories: z
        .object({
          enabled: z.boolean().default(false),
          maxRolloutAgeDays: int(1, 3650, 30),
          minRolloutIdleHours: num(0, 720, 12),
          maxRolloutsPerStartup: int(1, 10_000, 64),
          summaryInjectionTokenLimit: int(100, 200_000, 5000),
          /** Remembered memories a starting session is told, newest first, per scope group (project, global); 0: none. */
          rememberedInjectionLimit: int(0, 200, 15),
          allowedKinds: z.array(z.enum(sessionKinds)).min(1).default(["interactive"]),
          maxUnusedDays: int(1, 3650, 30),
          phase2MaxInputs: int(1, 10_000, 256),
          /** Sessions whose cwd or project key matches one of these globs are never read past their metadata. */
          exclude: z
            .array(
              z.string().superRefine((glob, ctx) => {
                const problem = globProblem(glob);
                if (problem) ctx.addIssue({ code: "custom", message: `bad glob '${glob}': ${problem}` });
              }),
            )
            .default([]),
        })
        .strict()
        .prefault({}),
      collection: z
        .object({
          idleHours: num(0, 720, 12),
          maxUnprocessedItems: int(1, 100_000, 5),
          scanIntervalSeconds: int(5, 86_400, 300),
        })
        .strict()
        .prefault({}),
      sources: sourcesConfigSchema(),
      llm: llmRole(),
      smol: z
        .object({
          provider: z.enum(llmProviderNames).optional(),
          model: z.string().optional(),
          baseUrl: z.string().optional(),
          apiKey: z.string().optional(),
          timeoutMs: int(1_000, 3_600_000, 120_000).optional(),
        })
        .strict()
        .prefault({}),
      extraction: z
        .object({
          concurrency: int(1, 64, 8),
          runningCap: int(1, 1000, 64),
          scanLimit: int(1, 100_000, 1000),
          maxInputTokens: int(1000, 1_000_000, 24_000),
          toolOutputMaxTokens: int(20, 100_000, 300),
          dailyTokenBudget: int(0, 1_000_000_000, 0),
        })
        .strict()
        .prefault({}),
      /**
       * The write pipeline's modes (seed 004): `enabled` false stops fact extraction and decisions,
       * `shadowMode` decides and audits without writing memories, `mutationsFrozen` stops every memory
       * write (remember included), `allowUpdateDelete` lets UPDATE and DELETE decisions supersede or
       * forget (as tombstones with history, so they can be undone), `autonomousFrozen` stops the daemon's
       * scheduled maintenance. docs/lifecycle.md has where cairn departs from the seed.
       */
      pipeline: z
        .object({
          enabled: z.boolean().default(true),
          shadowMode: z.boolean().default(false),
          allowUpdateDelete: z.boolean().default(true),
          mutationsFrozen: z.boolean().default(false),
          autonomousFrozen: z.boolean().default(false),
          minFactConfidenceForWrite: num(0, 1, 0.7),
          semanticContradictionEnabled: z.boolean().default(false),
          semanticContradictionTimeoutMs: int(5_000, 300_000, 45_000),
          structural: z
            .object({
              enabled: z.boolean().default(true),
              classifyBatchSize: int(1, 200, 20),
              // Aspect feedback: a recall hit adds feedbackDelta per confirming memory, within
              // [minWeight, maxWeight]; an aspect unconfirmed for staleDays loses decayRate (once per
              // staleDays), never below minWeight. New aspects start at 1, inside both ranges.
              feedbackDelta: num(0, 1, 0.05),
              minWeight: num(0, 1, 0.1),
              maxWeight: num(1, 10, 3),
              staleDays: int(1, 3650, 30),
              decayRate: num(0, 1, 0.05),
            })
            .strict()
            .prefault({}),
        })
        .strict()
        .prefault({}),
      consolidation: z
        .object({
          mode: z.enum(["auto", "llm", "agent", "offline"]).default("auto"),
          agentCli: z.enum(["codex", "claude"]).default("codex"),
          maxInputTokens: int(1000, 1_000_000, 48_000),
          timeoutMs: int(10_000, 7_200_000, 1_800_000),
        })
        .strict()
        .prefault({}),
      queue: z
        .object({
          leaseSeconds: int(5, 86_400, 300),
          phase2LeaseSeconds: int(5, 86_400, 3600),
          maxAttempts: int(1, 100, 5),
          backoffBaseMs: int(10, 86_400_000, 30_000),
          backoffMaxMs: int(10, 604_800_000, 21_600_000),
        })
        .strict()
        .prefault({}),
      embeddings: z
        .object({
          // Unset: the recall profile's (derivedDefaults.ts).
          provider: z.enum(embeddingProviderNames).default("hashed"),
          model: z.string().optional(),
          baseUrl: z.string().optional(),
          apiKey: z.string().optional(),
          dimensions: int(16, 8192, 384),
          /** `transformers`: which of the model's ONNX files to load; q8 is a quarter of fp32's size. */
          dtype: z.enum(embeddingDtypes).default(transformersDefaults.dtype),
          /** `transformers`: texts per model call; a batch is padded to its longest text. */
          batchSize: int(1, 256, transformersDefaults.batchSize),
          /** `transformers`: the commit `cairn embeddings download` fetches when given none. */
          revision: z.string().optional(),
        })
        .strict()
        .prefault({}),
      server: z
        .object({
          host: z.string().default("127.0.0.1"),
          port: int(0, 65_535, 7077),
          token: z
            .string()
            .optional()
            .superRefine((token, ctx) => {
              const problem = token ? weakTokenProblem(token) : undefined;
              if (problem) ctx.addIssue({ code: "custom", message: problem });
            }),
        })
        .strict()
        .prefault({}),
      /**
       * The process a `cairn recall` or `cairn inject` run in its own process starts to answer the next
       * ones (src/cli/resident/startOnDemand.ts): it ends after this many minutes without a command
       * line to answer. 0: none is started (`cairn serve` still answers while it runs).
       */
      resident: z
        .object({ idleMinutes: num(0, 1440, 10) })
        .strict()
        .prefault({}),
      recall: recallConfigSchema(),
      workers: workersConfigSchema(),
    })
    .strict(),
);

/** The settings with the defaults that depend on other settings (derivedDefaults.ts) filled in first. */
export const configSchema = lazily(() => z.preprocess(withDerivedDefaults, configObjectSchema()));

export type CairnConfig = z.infer<ReturnType<typeof configSchema>>;
export type ConfigInput = z.input<ReturnType<typeof configSchema>>;
