import type { CairnConfig } from "../config/schema.js";
import { type DocumentOutcome, ingestDocument, type OnDocumentStatus } from "../memory/documents/documentIngest.js";
import type { MemoryStore } from "../memory/memoryStore.js";
import { DOCUMENT_INGEST_KIND } from "../store/queue/jobKinds.js";
import type { Clock } from "../util/clock.js";
import { CairnError } from "../util/errors.js";
import type { WorkerCycle } from "./backgroundWorker.js";
import { runQueuedJobs } from "./runQueuedJobs.js";
import type { WorkerFactory } from "./workerSet.js";

/** Documents one cycle of the daemon's worker ingests at most; the rest wait for the next cycle. */
const DOCUMENTS_PER_CYCLE = 5;

/** What a run of document jobs did, by document id: its outcome, or the one error its ingest ended with. */
export interface DocumentRun {
  cycle: WorkerCycle;
  outcomes: Map<number, DocumentOutcome>;
  errors: Map<number, Error>;
}

/**
 * Runs the pending `document_ingest` jobs (those of `ids` when given) through the one queue: leased,
 * heartbeated, retried with backoff when the store or a bug fails them, dead after `queue.maxAttempts`.
 * A refused input (not text, too large, not found...) is not retried: asking again gets the same
 * answer, and the document it named is already gone (or back to its previous version), so the job
 * ends there; its error is returned, and the door that asked prints it.
 */
export async function runDocumentJobs(
  deps: { memories: MemoryStore; config: CairnConfig; clock: Clock },
  options: { ids?: number[]; limit?: number; onStatus?: OnDocumentStatus; sources?: Map<number, string> } = {},
): Promise<DocumentRun> {
  const outcomes = new Map<number, DocumentOutcome>();
  const errors = new Map<number, Error>();
  const settings = deps.config.workers.documents;
  const cycle = await runQueuedJobs({
    jobs: deps.memories.storage.jobs,
    kind: DOCUMENT_INGEST_KIND,
    limit: options.limit ?? options.ids?.length ?? DOCUMENTS_PER_CYCLE,
    leaseMs: deps.config.queue.leaseSeconds * 1000,
    ...(options.ids ? { keys: options.ids.map(String) } : {}),
    work: async (lease) => {
      const id = Number(lease.key);
      try {
        const source = options.sources?.get(id);
        const outcome = await ingestDocument({ store: deps.memories, settings, clock: deps.clock }, id, {
          ...(options.onStatus ? { onStatus: options.onStatus } : {}),
          ...(source === undefined ? {} : { source }),
        });
        if (!outcome) return { processed: 0, result: { skipped: "the document was forgotten or removed" } };
        outcomes.set(id, outcome);
        return { processed: outcome.added, result: { chunks: outcome.chunks, added: outcome.added } };
      } catch (error) {
        errors.set(id, error instanceof Error ? error : new Error(String(error)));
        if (CairnError.isInstance(error) && error.code === "bad_input")
          return { processed: 0, result: { refused: error.message } };
        throw error;
      }
    },
  });
  return { cycle, outcomes, errors };
}

/**
 * The documents worker (seed 004): every `workers.documents.intervalMs` it runs the ingest jobs that
 * are due: those a crashed or interrupted ingest left, and those the queue retries. `cairn ingest`, the
 * HTTP route and the MCP tool run their document's job at once themselves.
 */
export const documentsWorker: WorkerFactory = (host) => ({
  name: "documents",
  intervalMs: host.config.workers.documents.intervalMs,
  cycle: async () => {
    const memories = host.memories;
    if (!memories) return { processed: 0, failed: 0, queueDepth: 0, skipped: "no memory store in this process" };
    const run = await runDocumentJobs({ memories, config: host.config, clock: host.clock });
    for (const [id, error] of run.errors) host.log(`documents: document #${id}: ${error.message}`);
    return run.cycle;
  },
});
