import { basename } from "node:path";
import type { WorkersConfig } from "../../config/workersConfig.js";
import type {
  CheckpointInput,
  CheckpointRecord,
  CheckpointTrigger,
} from "../../store/repositories/checkpointRepository.js";
import type { Storage } from "../../store/storage.js";
import { withWriteTx } from "../../store/tx.js";
import { formatDigest } from "./checkpointDigest.js";
import { MAX_QUERIES, MAX_REMEMBERS, pushLatest, type SessionSnapshot } from "./sessionSnapshot.js";

export type ContinuitySettings = WorkersConfig["continuity"];

/** A checkpoint to write: the session it is of, what fired it, and what was read of the session. */
export interface CheckpointCapture {
  sessionKey: string;
  agent: string;
  cwd: string | null;
  projectKey: string | null;
  trigger: CheckpointTrigger;
  snapshot: SessionSnapshot;
}

export interface CheckpointWrite {
  id: number;
  /** Merged into the session's checkpoint of the flush window instead of adding a row. */
  merged: boolean;
  /** The session's oldest checkpoints deleted by the per-session cap. */
  capped: number;
  record: CheckpointRecord;
}

/** When two triggers merge, the merged checkpoint is named for the one that says more about the session. */
const WEIGHT: Record<CheckpointTrigger, number> = {
  periodic: 0,
  agent: 1,
  explicit: 2,
  pre_compaction: 3,
  session_end: 4,
};

/**
 * The flush of seed 004, applied at the write: a checkpoint of a session whose newest checkpoint was
 * written less than `flushDebounceMs` ago merges into it (one row: queries and remembers united with
 * the caps of 20 and 10, prompt counts summed, the newer reading of the session kept) instead of adding
 * a row; then the session keeps its newest `maxCheckpointsPerSession`. Done in one write transaction, so
 * it holds across processes: a hook lives a few hundred milliseconds and cannot wait out a timer, and a
 * write held back in a timer would be lost with the process. The text is redacted by the repository.
 */
export function writeCheckpoint(
  storage: Pick<Storage, "db" | "checkpoints">,
  capture: CheckpointCapture,
  settings: Pick<ContinuitySettings, "flushDebounceMs" | "maxCheckpointsPerSession">,
  now: number,
): CheckpointWrite {
  const { checkpoints } = storage;
  return withWriteTx(storage.db, () => {
    const latest = checkpoints.latestOf(capture.sessionKey);
    const { snapshot } = capture;
    const covered = Math.max(0, snapshot.promptTotal - (latest?.promptTotal ?? 0));
    const fresh: CheckpointInput = {
      sessionKey: capture.sessionKey,
      agent: capture.agent,
      projectKey: capture.projectKey,
      cwd: capture.cwd,
      trigger: capture.trigger,
      digest: "",
      promptCount: covered,
      promptTotal: Math.max(snapshot.promptTotal, latest?.promptTotal ?? 0),
      memoryQueries: snapshot.memoryQueries.slice(-MAX_QUERIES),
      recentRemembers: snapshot.recentRemembers.slice(-MAX_REMEMBERS),
      state: snapshot.state,
    };
    const inWindow = latest !== undefined && now - latest.updatedAt < settings.flushDebounceMs;
    const input = inWindow ? mergeCheckpoints(latest, fresh) : fresh;
    input.digest = formatDigest({ ...input, projectName: input.cwd ? basename(input.cwd) : null });
    let id: number;
    if (inWindow) {
      id = latest.id;
      checkpoints.update(id, input, now);
    } else {
      id = checkpoints.insert(input, now);
    }
    const capped = checkpoints.capSession(capture.sessionKey, settings.maxCheckpointsPerSession);
    const record = checkpoints.latestOf(capture.sessionKey);
    if (!record) throw new Error("the checkpoint just written is missing");
    return { id, merged: inWindow, capped, record };
  });
}

/**
 * Two checkpoints of one session in one flush window as one: the lists united (the newer entries last,
 * the latest kept within the caps), prompt counts summed, the newer reading of the session, and the
 * weightier trigger.
 */
export function mergeCheckpoints(older: CheckpointInput, newer: CheckpointInput): CheckpointInput {
  const queries = [...older.memoryQueries];
  for (const query of newer.memoryQueries) pushLatest(queries, query, MAX_QUERIES);
  const remembers = [...older.recentRemembers];
  for (const text of newer.recentRemembers) pushLatest(remembers, text, MAX_REMEMBERS);
  return {
    ...newer,
    trigger: WEIGHT[older.trigger] > WEIGHT[newer.trigger] ? older.trigger : newer.trigger,
    projectKey: newer.projectKey ?? older.projectKey,
    cwd: newer.cwd ?? older.cwd,
    promptCount: older.promptCount + newer.promptCount,
    promptTotal: Math.max(older.promptTotal, newer.promptTotal),
    memoryQueries: queries,
    recentRemembers: remembers,
  };
}
