import { existsSync } from "node:fs";
import type { CairnConfig } from "../config/schema.js";
import { exclusionMatcher } from "../project/exclusion.js";
import { projectIdentity } from "../project/projectKey.js";
import type { FolderFilter } from "../store/contracts/eligibility.js";
import { ageLimitIncluding } from "../store/eligibilityWindow.js";
import { HOUR_MS } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import { projectWorkspace } from "../workspace/workspacePaths.js";
import type { FolderState } from "./folderState.js";
import { singleLine } from "./quoteMemory.js";
import { waitingParts } from "./waitingParts.js";

/** Why an injection is empty, as code can branch on it and as one line for a person. */
export interface EmptyInjectionReason {
  code:
    | "excluded"
    | "no_knowledge"
    | "no_store"
    | "no_sessions"
    | "too_recent"
    | "too_old"
    | "pending"
    | "not_consolidated"
    | "nothing_kept"
    | "store_unreadable";
  /** What was looked for, why nothing came, and what would change it. */
  message: string;
  /** The folder, the project keys its memory is kept under, and the workspace read. */
  looked: { cwd: string; projectKeys: string[]; workspace: string };
  /** The `memories.exclude` pattern that covers the folder. */
  excludedBy?: string;
  /** The folder's sessions by what became of them; absent when the store was not read. */
  sessions?: FolderSessionsReason;
  /** Live memories stored under the folder's project keys. */
  memories?: number;
}

export interface FolderSessionsReason {
  total: number;
  excluded: number;
  extracted: number;
  /** Extracted without a model (the offline extractor). */
  extractedOffline: number;
  /** Still being written to: pending once idle for collection.idleHours. */
  active: number;
  eligible: number;
  tooRecent: number;
  tooOld: number;
  kindExcluded: number;
  backingOff: number;
  dead: number;
  /** When the first of the active or too recent sessions can be extracted (epoch ms). */
  eligibleAt?: number;
  /** The memories.maxRolloutAgeDays that includes every session too old now. */
  includeWithMaxRolloutAgeDays?: number;
}

/**
 * Why a session starting in `cwd` is given no memory: the folder is excluded, nothing was ever
 * scanned, no session was in this folder, its sessions wait (too recent, too old, failed), or they
 * were read and nothing was kept or consolidated yet. `state` reads the folder's sessions and memories
 * from the store (undefined: there is none); it is called only once the folder is known not excluded.
 */
export function emptyInjectionReason(options: {
  config: CairnConfig;
  memoriesRoot: string;
  cwd: string;
  /** The workspace the injection read (its key may differ from the folder's own identity). */
  workspace: { key: string; name: string };
  now: number;
  state: (folder: FolderFilter) => FolderState | undefined;
}): EmptyInjectionReason {
  const { config, cwd, workspace } = options;
  const projectKeys = [...new Set([projectIdentity(cwd).key, workspace.key])];
  const looked = { cwd, projectKeys, workspace: workspace.key };
  const reason = (code: EmptyInjectionReason["code"], why: string, extra: Partial<EmptyInjectionReason> = {}) => ({
    code,
    message: `no memory to give for ${cwd} (project ${projectKeys.join(", ")}): ${why}`,
    looked,
    ...extra,
  });
  const match = exclusionMatcher(config.memories.exclude);
  const excludedBy = projectKeys.map((key) => match?.(cwd, key)).find((pattern) => pattern !== undefined);
  if (excludedBy !== undefined)
    return reason(
      "excluded",
      `the folder is excluded by memories.exclude ('${excludedBy}'), so cairn keeps nothing of it (see 'cairn config get memories.exclude')`,
      { excludedBy },
    );
  let state: FolderState | undefined;
  try {
    state = options.state({ projectKeys, cwd });
  } catch (error) {
    return reason("store_unreadable", `the store could not be read (${singleLine(errorMessage(error), 300)})`);
  }
  const sessions = state && sessionsReason(state, config, options.now);
  const memories = state?.memories;
  const found = { ...(sessions ? { sessions } : {}), ...(memories === undefined ? {} : { memories }) };
  const waiting = sessions ? waitingParts(sessions, config) : [];
  const waits =
    sessions && waiting.length > 0 ? `${plural(sessions.total, "session")} of this folder: ${waiting.join("; ")}` : "";
  // Phase 2 wrote the project's workspace, and nothing in it is knowledge a session is given.
  if (existsSync(projectWorkspace(options.memoriesRoot, workspace.key).dir))
    return reason(
      "no_knowledge",
      `its memory holds no decision, fact, pitfall, open work, preference or tip yet ('cairn read memory://root/MEMORY.md' shows it)${waits ? `; ${waits}` : ""}`,
      found,
    );
  if (!state || !sessions)
    return reason("no_store", "no session has been scanned yet; 'cairn run' reads your agents' sessions");
  if (sessions.total === 0)
    return reason(
      "no_sessions",
      state.allSessions === 0
        ? "no session has been scanned yet; 'cairn run' reads your agents' sessions ('cairn doctor' checks where it looks)"
        : `none of the ${state.allSessions} sessions scanned was in this folder or project; an agent's session here is read by the next 'cairn run'`,
      found,
    );
  if (sessions.excluded === sessions.total)
    return reason(
      "excluded",
      `${sessions.total === 1 ? "its one session is" : `all ${sessions.total} sessions of this folder are`} excluded by memories.exclude (see 'cairn config get memories.exclude')`,
      found,
    );
  if (waits) return reason(waitCode(sessions), waits, found);
  if (state.memories > 0)
    return reason(
      "not_consolidated",
      `${plural(state.memories, "memory", "memories")} stored for this project, not consolidated into its summary yet: 'cairn run' writes it ('cairn recall' finds them now)`,
      found,
    );
  const offline =
    sessions.extractedOffline > 0 && sessions.extractedOffline === sessions.extracted
      ? " by the offline extractor (no model is configured: llm.provider; a model reads more from a session)"
      : "";
  return reason(
    "nothing_kept",
    `${plural(sessions.extracted, "session")} of this folder read${offline}, and nothing in them was worth keeping`,
    found,
  );
}

/** The wait that explains most: sessions ready or failed, else too recent, else too old. */
function waitCode(sessions: FolderSessionsReason): EmptyInjectionReason["code"] {
  if (sessions.eligible > 0 || sessions.dead + sessions.backingOff > 0) return "pending";
  if (sessions.tooRecent + sessions.active > 0) return "too_recent";
  return sessions.tooOld > 0 ? "too_old" : "pending";
}

/** The folder's sessions by what became of them, and when those waiting can be taken. */
export function sessionsReason(state: FolderState, config: CairnConfig, now: number): FolderSessionsReason {
  const { sessions, pending, bounds } = state;
  const { minRolloutIdleHours } = config.memories;
  // A session still in use is marked pending once idle for collection.idleHours, then extracted once
  // idle for memories.minRolloutIdleHours: the later of the two.
  const idleMs = Math.max(minRolloutIdleHours, config.collection.idleHours) * HOUR_MS;
  const starts = [
    ...(bounds.oldestTooRecent === null ? [] : [bounds.oldestTooRecent + minRolloutIdleHours * HOUR_MS]),
    ...(sessions.oldestActive === null ? [] : [sessions.oldestActive + idleMs]),
  ];
  const oldest = [bounds.oldestTooOld, sessions.oldestOld].filter((at): at is number => at !== null);
  const includeTooOld = oldest.length === 0 ? undefined : ageLimitIncluding(Math.min(...oldest), config, now);
  return {
    total: sessions.total,
    excluded: sessions.excluded,
    extracted: sessions.extracted,
    extractedOffline: sessions.extractedOffline,
    active: sessions.active,
    // Idle ones not yet marked are marked and taken by the same next run.
    eligible: pending.eligible + pending.leased + sessions.idle,
    tooRecent: pending.tooRecent,
    tooOld: pending.tooOld + sessions.old,
    kindExcluded: pending.kindExcluded,
    backingOff: pending.backingOff,
    dead: pending.dead,
    ...(starts.length > 0 ? { eligibleAt: Math.min(...starts) } : {}),
    ...(includeTooOld === undefined ? {} : { includeWithMaxRolloutAgeDays: includeTooOld }),
  };
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
