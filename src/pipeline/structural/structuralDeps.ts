import type { Database } from "better-sqlite3";
import type { CairnConfig } from "../../config/schema.js";
import type { LlmProvider } from "../../providers/llm/types.js";
import type { AspectRepo } from "../../store/contracts/aspects.js";
import type { MetaRepo } from "../../store/contracts/meta.js";
import type { JobQueue } from "../../store/queue/jobQueue.js";
import type { Clock } from "../../util/clock.js";

export type StructuralConfig = CairnConfig["pipeline"]["structural"];

export interface StructuralDeps {
  db: Database;
  aspects: AspectRepo;
  jobs: JobQueue;
  meta: MetaRepo;
  /** The default model role; null (offline) leaves every fact waiting. */
  llm: LlmProvider | null;
  config: StructuralConfig;
  /** `pipeline.mutationsFrozen`: the store takes no writes from the pipeline. */
  frozen: boolean;
  /** Entities classified at once (model calls in flight). */
  concurrency: number;
  /** Lease length of the queue, for the heartbeat that keeps a long entity's lease alive. */
  leaseMs: number;
  clock: Clock;
}
