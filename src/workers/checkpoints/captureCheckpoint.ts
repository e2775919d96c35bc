import type { SessionRecord } from "../../collection/types.js";
import { exclusionMatcher } from "../../project/exclusion.js";
import { projectIdentity } from "../../project/projectKey.js";
import type { CheckpointTrigger } from "../../store/repositories/checkpointRepository.js";
import type { Storage } from "../../store/storage.js";
import { sessionSnapshot } from "./sessionSnapshot.js";
import {
  type CheckpointCapture,
  type CheckpointWrite,
  type ContinuitySettings,
  writeCheckpoint,
} from "./writeCheckpoint.js";

/** Which session to checkpoint, and where to read it from. */
export interface CheckpointSource {
  trigger: CheckpointTrigger;
  /** The session's id as the agent names it (a hook's `session_id`, a pushed session's id). */
  sessionKey?: string;
  /** The agent (`claude-code`, `gemini`, ...): says how to read `transcriptPath`. */
  agent?: string;
  /** The session's folder: without a session key, the newest stored session of its project is taken. */
  cwd?: string;
  /** A transcript the agent handed over (a hook's `transcript_path`): read it instead of the store. */
  transcriptPath?: string;
  /**
   * `memories.exclude`: a session of an excluded folder or project is not read past its metadata and
   * gets no checkpoint, whichever door asks (a hook, the CLI, the push API, the periodic worker).
   */
  exclude: readonly string[];
}

/** Why there is nothing to checkpoint; `excluded` when `memories.exclude` covers the session. */
export interface NoCheckpoint {
  reason: string;
  excluded?: boolean;
}

export type CheckpointOutcome = ({ written: true } & CheckpointWrite) | { written: false; reason: string };

/**
 * Writes one checkpoint of a session (src/workers/checkpoints/writeCheckpoint.ts), read from the
 * transcript a hook names when it can be read (the freshest state: the scan may not have seen its last
 * turns), else from the store (pushed or scanned items). Says why nothing was written: checkpoints off,
 * no such session, a session without items.
 */
export async function captureCheckpoint(
  storage: Storage,
  settings: Pick<ContinuitySettings, "enabled" | "flushDebounceMs" | "maxCheckpointsPerSession">,
  source: CheckpointSource,
  now: number,
): Promise<CheckpointOutcome> {
  if (!settings.enabled) return { written: false, reason: "workers.continuity.enabled is false" };
  const capture = await readCheckpointSource(storage, source, now);
  if ("reason" in capture) return { written: false, reason: capture.reason };
  return { written: true, ...writeCheckpoint(storage, capture, settings, now) };
}

/** What a checkpoint of `source` would hold, read without writing; or why there is nothing to read. */
export async function readCheckpointSource(
  storage: Storage,
  source: CheckpointSource,
  now: number,
): Promise<CheckpointCapture | NoCheckpoint> {
  const excluded = excludedReason(source, source.cwd ?? null, null);
  if (excluded) return { reason: excluded, excluded: true };
  // The agents' transcript readers are loaded when a transcript is read, not with every command that
  // opens the store (docs/decisions/startup.md).
  const fromTranscript =
    source.transcriptPath && source.agent
      ? await (await import("./transcriptItems.js")).transcriptItems(
          source.agent,
          source.transcriptPath,
          source.sessionKey,
        )
      : undefined;
  if (!fromTranscript || fromTranscript.items.length === 0) return storedCheckpointSource(storage, source);
  const info = fromTranscript.session;
  const session =
    storage.sessions.get(info.id) ?? transientSession(info.id, info.agent, info.cwd ?? source.cwd ?? null, now);
  const excludedSession = excludedReason(source, session.cwd, session.projectKey);
  if (excludedSession) return { reason: excludedSession, excluded: true };
  return captureOf(session, fromTranscript.items, fromTranscript.droppedPrompts, source);
}

/** `readCheckpointSource` from the store only (pushed or scanned items): no file is read. */
export function storedCheckpointSource(storage: Storage, source: CheckpointSource): CheckpointCapture | NoCheckpoint {
  const session = storedSession(storage, source);
  if (!session) return { reason: noSessionReason(source) };
  const excluded = excludedReason(source, session.cwd ?? source.cwd ?? null, session.projectKey);
  if (excluded) return { reason: excluded, excluded: true };
  const items = storage.items.list(session.id);
  if (items.length === 0) return { reason: `session ${session.id} has no items yet` };
  return captureOf(session, items, 0, source);
}

function captureOf(
  session: SessionRecord,
  items: Parameters<typeof sessionSnapshot>[1],
  droppedPrompts: number,
  source: CheckpointSource,
): CheckpointCapture {
  const snapshot = sessionSnapshot(session, items);
  snapshot.promptTotal += droppedPrompts;
  const cwd = session.cwd ?? source.cwd ?? null;
  return {
    sessionKey: source.sessionKey ?? session.id,
    agent: session.agent === "push" && source.agent ? source.agent : session.agent,
    cwd,
    projectKey: session.projectKey ?? (cwd ? projectIdentity(cwd).key : null),
    trigger: source.trigger,
    snapshot,
  };
}

/** Why a session of this folder or project gets no checkpoint (`memories.exclude`), or undefined. */
function excludedReason(source: CheckpointSource, cwd: string | null, projectKey: string | null): string | undefined {
  if (cwd === null && projectKey === null) return undefined;
  const pattern = exclusionMatcher(source.exclude)?.(cwd, projectKey);
  return pattern === undefined ? undefined : `the session's project is excluded by memories.exclude ('${pattern}')`;
}

function storedSession(storage: Storage, source: CheckpointSource): SessionRecord | undefined {
  if (source.sessionKey) return storage.sessions.get(source.sessionKey);
  if (!source.cwd) return undefined;
  return storage.sessions.list({ projectKey: projectIdentity(source.cwd).key, limit: 1 })[0];
}

function noSessionReason(source: CheckpointSource): string {
  if (source.sessionKey) return `no session ${source.sessionKey} is stored (run 'cairn scan', or push its items first)`;
  if (source.cwd) return `no session of the project at ${source.cwd} is stored yet (run 'cairn scan' first)`;
  return "name a session (its id) or a folder of a project";
}

/** A session the store has not collected yet, known only from its transcript. */
function transientSession(id: string, agent: SessionRecord["agent"], cwd: string | null, now: number): SessionRecord {
  return {
    id,
    agent,
    kind: "interactive",
    cwd,
    projectKey: cwd ? projectIdentity(cwd).key : null,
    gitBranch: null,
    gitCommit: null,
    gitRemote: null,
    title: null,
    parentId: null,
    sourcePath: null,
    startedAt: now,
    updatedAt: now,
    endedAt: null,
    contentHash: null,
    invalidatedAt: null,
    processedUntil: null,
    createdAt: now,
  };
}
