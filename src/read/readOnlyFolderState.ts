import { existsSync } from "node:fs";
import type { CairnConfig } from "../config/schema.js";
import type { FolderFilter } from "../store/contracts/eligibility.js";
import { Storage } from "../store/storage.js";
import { type FolderState, folderState } from "./folderState.js";
import { BUSY_TIMEOUT_MS } from "./readOnlyRemembered.js";

/**
 * The folder's state from the store at `databasePath`, read-only with a connection of its own closed
 * again at once; undefined when there is no store (nothing was ever scanned or remembered).
 */
export function readOnlyFolderState(options: {
  databasePath: string;
  config: CairnConfig;
  folder: FolderFilter;
  now: number;
}): FolderState | undefined {
  if (!existsSync(options.databasePath)) return undefined;
  const storage = Storage.openReadOnly(options.databasePath, { busyTimeoutMs: BUSY_TIMEOUT_MS });
  try {
    return folderState({ storage, config: options.config, folder: options.folder, now: options.now });
  } finally {
    storage.close();
  }
}
