import { createMemoryRoot } from "../config/createMemoryRoot.js";
import { loadConfigCached } from "../config/loadConfigCached.js";
import { cairnPaths } from "../config/paths.js";
import type { CheckpointTrigger } from "../store/repositories/checkpointRepository.js";
import { type CheckpointOutcome, captureCheckpoint } from "../workers/checkpoints/captureCheckpoint.js";
import { isCairnInternal } from "../workers/startBackgroundRun.js";

/** The agent events that write a checkpoint, by the `cairn hook` subcommand that receives them. */
export const CHECKPOINT_HOOK_EVENTS = {
  /** Claude Code `PreCompact`, Gemini CLI `PreCompress`. */
  "pre-compact": "pre_compaction",
  /** Claude Code and Gemini CLI `SessionEnd`. */
  "session-end": "session_end",
} as const satisfies Record<string, CheckpointTrigger>;

export type CheckpointHookEvent = keyof typeof CHECKPOINT_HOOK_EVENTS;

export interface CheckpointHookRequest {
  event: CheckpointHookEvent;
  agent: string;
  home: string;
  /** From --cwd; else the hook input's cwd. */
  cwd?: string;
  /** The agent's hook input: `session_id`, `transcript_path`, `cwd` (Claude Code and Gemini CLI). */
  input: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  now?: () => number;
}

/**
 * A checkpoint hook (PreCompact, SessionEnd): reads the session from the transcript the agent names and
 * writes its checkpoint at once. A hook process lives for a moment, so it cannot wait out the flush
 * window; the write itself merges into a checkpoint of the same session written within the window (see
 * writeCheckpoint). Never blocks or fails the agent: the caller prints nothing on stdout and turns any
 * error into one stderr line.
 */
export async function checkpointHook(request: CheckpointHookRequest): Promise<CheckpointOutcome> {
  if (isCairnInternal(request.env)) return { written: false, reason: "inside one of cairn's own model runs" };
  const paths = cairnPaths(request.home);
  const config = await loadConfigCached({ file: paths.config, env: request.env });
  if (!config.memories.enabled) return { written: false, reason: "memories.enabled is false" };
  const settings = config.workers.continuity;
  if (!settings.enabled) return { written: false, reason: "workers.continuity.enabled is false" };
  const { input } = request;
  const text = (key: string) =>
    typeof input[key] === "string" && input[key] !== "" ? (input[key] as string) : undefined;
  const sessionKey = text("session_id");
  const transcriptPath = text("transcript_path");
  const cwd = request.cwd ?? text("cwd");
  if (!sessionKey && !transcriptPath) return { written: false, reason: "the hook input names no session" };
  createMemoryRoot(paths.home);
  const { Storage } = await import("../store/storage.js");
  const storage = Storage.open(paths.database, { dimensions: config.embeddings.dimensions });
  try {
    return await captureCheckpoint(
      storage,
      settings,
      {
        trigger: CHECKPOINT_HOOK_EVENTS[request.event],
        agent: request.agent,
        ...(sessionKey ? { sessionKey } : {}),
        ...(cwd ? { cwd } : {}),
        ...(transcriptPath ? { transcriptPath } : {}),
        exclude: config.memories.exclude,
      },
      (request.now ?? Date.now)(),
    );
  } finally {
    storage.close();
  }
}
