import type { WorkersConfig } from "../../config/workersConfig.js";
import { dropErasedBytes, type ErasedBytesReport } from "../../store/dropErasedBytes.js";
import type { RetentionCutoffs } from "../../store/repositories/retentionRepository.js";
import type { Storage } from "../../store/storage.js";
import { withWriteTx } from "../../store/tx.js";
import { DAY_MS } from "../../util/clock.js";

export type RetentionSettings = Pick<
  WorkersConfig["retention"],
  "tombstoneDays" | "historyDays" | "completedJobDays" | "deadJobDays" | "batchSize"
>;

/** The steps of one sweep, in the order they run (seed 004). */
export const RETENTION_STEPS = ["graph", "embeddings", "memories", "history", "completedJobs", "deadJobs"] as const;
export type RetentionStep = (typeof RETENTION_STEPS)[number];

export interface RetentionReport {
  /** Expired memories this sweep took (at most one batch). */
  memories: number;
  /** Forgotten documents left without a chunk, taken with the memories (their title and source). */
  documents: number;
  /** Graph links removed, entities left without a mention removed, and their relations. */
  links: number;
  entities: number;
  relations: number;
  embeddings: number;
  history: number;
  completedJobs: number;
  deadJobs: number;
  /** Whether a step took a full batch: more waits for the next sweep. */
  more: boolean;
  /** How the deleted text was dropped from the file, when any text was deleted. */
  bytes: ErasedBytesReport | null;
}

export const retentionCutoffs = (settings: RetentionSettings, now: number): RetentionCutoffs => ({
  forgottenBefore: now - settings.tombstoneDays * DAY_MS,
  historyBefore: now - settings.historyDays * DAY_MS,
  completedJobsBefore: now - settings.completedJobDays * DAY_MS,
  deadJobsBefore: now - settings.deadJobDays * DAY_MS,
});

const COMPLETED = ["succeeded", "succeeded_no_output"];

/** Meta key: memories were purged and the file has not been rewritten since. */
const REWRITE_PENDING = "retention.rewritePending";

/**
 * One retention sweep: purges what outlived its window, at most `batchSize` rows per step, each step
 * its own short write transaction in the seed's order (graph links, embeddings and vectors, memory
 * rows with the forgotten documents left without a chunk, history, completed jobs, dead jobs), so a
 * reader or a writer never waits long and a sweep stopped between steps is finished by the next.
 * When text was deleted, it is then dropped from the file too: `secure_delete` zeroed the rows, but a
 * full-text index keeps a deleted row's terms until its segments merge, the write-ahead log keeps old
 * pages until truncated, and a row moved by a page split can leave its old bytes in the free gap of a
 * page that stays in use (bench:year found one such copy in ~600 purged memories), which only a
 * rewrite of the file (VACUUM) clears. So a sweep that purged memories or documents rewrites the file,
 * as `cairn memory purge` does; one that purged only history or entities merges the indexes and
 * truncates the log.
 * `onStep` sees each step after it committed (tests, the benchmark).
 */
export function runRetention(options: {
  storage: Pick<Storage, "db" | "retention" | "meta">;
  settings: RetentionSettings;
  now: number;
  onStep?: (step: RetentionStep, rows: number) => void;
}): RetentionReport {
  const { storage, settings, now } = options;
  const repo = storage.retention;
  const cutoffs = retentionCutoffs(settings, now);
  const limit = settings.batchSize;
  const report: RetentionReport = {
    memories: 0,
    documents: 0,
    links: 0,
    entities: 0,
    relations: 0,
    embeddings: 0,
    history: 0,
    completedJobs: 0,
    deadJobs: 0,
    more: false,
    bytes: null,
  };
  const step = (name: RetentionStep, work: () => number): void => {
    const rows = withWriteTx(storage.db, work);
    options.onStep?.(name, rows);
  };
  // The batch is chosen once: the first three steps work on the same memories.
  const ids = withWriteTx(storage.db, () => repo.expiredMemories(cutoffs, limit));
  step("graph", () => {
    if (ids.length === 0) return 0;
    const graph = repo.unlinkGraph(ids);
    report.links = graph.links;
    report.entities = graph.entities;
    report.relations = graph.relations;
    return graph.links;
  });
  step("embeddings", () => {
    report.embeddings = ids.length === 0 ? 0 : repo.dropEmbeddings(ids);
    return report.embeddings;
  });
  step("memories", () => {
    report.memories = ids.length === 0 ? 0 : repo.deleteMemories(ids);
    report.documents = repo.deleteForgottenDocuments(cutoffs.forgottenBefore, limit);
    // Recorded with the delete, so a rewrite that fails (another writer, a full disk) is done next sweep.
    if (report.memories + report.documents > 0) storage.meta.set(REWRITE_PENDING, true);
    return report.memories;
  });
  step("history", () => {
    report.history = repo.deleteHistory(cutoffs.historyBefore, limit);
    return report.history;
  });
  step("completedJobs", () => {
    report.completedJobs = repo.deleteJobs(COMPLETED, cutoffs.completedJobsBefore, limit);
    return report.completedJobs;
  });
  step("deadJobs", () => {
    report.deadJobs = repo.deleteJobs(["dead"], cutoffs.deadJobsBefore, limit);
    return report.deadJobs;
  });
  report.more = [ids.length, report.documents, report.history, report.completedJobs, report.deadJobs].some(
    (rows) => rows >= limit,
  );
  if (storage.meta.get<boolean>(REWRITE_PENDING)) {
    report.bytes = dropErasedBytes(storage.db, { rewrite: true });
    // A reader of another process kept the log's old frames (and their text): the next sweep tries again.
    if (report.bytes.walEmptied) withWriteTx(storage.db, () => storage.meta.delete(REWRITE_PENDING));
  } else if (report.history + report.entities > 0) {
    report.bytes = dropErasedBytes(storage.db);
  }
  return report;
}

/** Rows this sweep purged in all. */
export const purgedRows = (report: RetentionReport): number =>
  report.memories +
  report.documents +
  report.links +
  report.entities +
  report.embeddings +
  report.history +
  report.completedJobs +
  report.deadJobs;
