import { z } from "zod";
import { lazily } from "../util/lazily.js";
import { int } from "./boundedNumbers.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The background workers of seed 004 (retention, maintenance, documents, session checkpoints,
 * continuity scoring), each with the seed's default and range. Every worker runs on the
 * one job queue (src/store/queue) and reports the same stats (src/workers/backgroundWorker.ts);
 * docs/operations.md explains each one.
 */
export const workersConfigSchema = lazily(() =>
  z
    .object({
      retention: z
        .object({
          enabled: z.boolean().default(true),
          /** seed: every 6 hours. */
          intervalMs: int(MINUTE, 7 * DAY, 6 * HOUR),
          /** seed windows: tombstones 30 days, history 180, completed jobs 14, dead jobs 30. */
          tombstoneDays: int(1, 3650, 30),
          historyDays: int(1, 3650, 180),
          completedJobDays: int(1, 3650, 14),
          deadJobDays: int(1, 3650, 30),
          /** seed: rows per step and sweep, so no write transaction runs long. */
          batchSize: int(10, 10_000, 500),
        })
        .strict()
        .prefault({}),
      maintenance: z
        .object({
          /** seed `autonomous.enabled`; `pipeline.autonomousFrozen` also stops the schedule. */
          enabled: z.boolean().default(true),
          /** seed: 30 minutes, range 60 s to 24 h. */
          intervalMs: int(MINUTE, DAY, 30 * MINUTE),
          /** `observe` reports what it would repair; `execute` repairs (seed default). */
          mode: z.enum(["observe", "execute"]).default("execute"),
          /** Per repair action: the least time between two runs, and runs allowed in an hour. */
          cooldownMs: int(5 * SECOND, HOUR, MINUTE),
          hourlyBudget: int(1, 1000, 10),
          /** Consecutive runs of an action that do not raise the health score before it is halted. */
          haltAfter: int(1, 100, 3),
        })
        .strict()
        .prefault({}),
      documents: z
        .object({
          /** seed: the document worker polls every 10 s (range 1 s to 300 s). */
          intervalMs: int(SECOND, 300 * SECOND, 10 * SECOND),
          /** The most characters a chunk holds; cuts follow paragraphs and headings (chunkText). */
          chunkSize: int(200, 50_000, 2000),
          /** Characters repeated where a cut falls inside a paragraph longer than a chunk. */
          chunkOverlap: int(0, 10_000, 200),
          /** seed: 10 MB, range 1 KB to 100 MB; enforced while the body streams. */
          maxContentBytes: int(1024, 100 * 1024 * 1024, 10 * 1024 * 1024),
          fetchTimeoutMs: int(SECOND, 300 * SECOND, 30 * SECOND),
          /** URLs naming loopback, link-local or private addresses are refused unless this is true. */
          allowPrivateAddresses: z.boolean().default(false),
        })
        .strict()
        .prefault({}),
      continuity: z
        .object({
          enabled: z.boolean().default(true),
          promptInterval: int(1, 1000, 10),
          timeIntervalMs: int(MINUTE, HOUR, 15 * MINUTE),
          maxCheckpointsPerSession: int(1, 500, 50),
          retentionDays: int(1, 90, 7),
          recoveryBudgetChars: int(200, 10_000, 2000),
          /** seed: checkpoint writes are debounced and merged for this long. */
          flushDebounceMs: int(100, MINUTE, 2500),
          /** Score how the injected memories were used, once a session has ended. */
          scoring: z.boolean().default(true),
        })
        .strict()
        .prefault({}),
    })
    .strict()
    .prefault({}),
);

export type WorkersConfig = z.infer<ReturnType<typeof workersConfigSchema>>;
