import type { CairnConfig } from "../config/schema.js";
import type { FolderFilter, PendingBounds, PendingBreakdown } from "../store/contracts/eligibility.js";
import { eligibilityWindow } from "../store/eligibilityWindow.js";
import type { FolderSessions } from "../store/repositories/sessionsRepository.js";
import type { Storage } from "../store/storage.js";
import { HOUR_MS } from "../util/clock.js";

/** What the store holds of one folder: its sessions, by what became of them, and its memories. */
export interface FolderState {
  /** Sessions in the whole store (to tell "none here" from "none at all"). */
  allSessions: number;
  sessions: FolderSessions;
  /** Pending sessions of the folder, by why they wait (the phase-1 rules). */
  pending: PendingBreakdown;
  bounds: PendingBounds;
  /** Live memories in the folder's project scopes. */
  memories: number;
}

/**
 * Reads the folder's state: a few indexed queries, run only when there is nothing to give (an empty
 * injection or recall), to say why.
 */
export function folderState(options: {
  storage: Storage;
  config: CairnConfig;
  folder: FolderFilter;
  now: number;
}): FolderState {
  const { storage, folder } = options;
  const window = { ...eligibilityWindow(options.config, options.now), folder };
  const idleBefore = options.now - options.config.collection.idleHours * HOUR_MS;
  const byScope = storage.memories.counts().byScope;
  return {
    allSessions: storage.sessions.count(),
    sessions: storage.sessions.folderSessions(folder, { idleBefore, oldest: window.oldest }),
    pending: storage.eligibility.breakdown(window),
    bounds: storage.eligibility.bounds(window),
    memories: folder.projectKeys.reduce((sum, key) => sum + (byScope[key] ?? 0), 0),
  };
}
