import { Storage } from "../store/storage.js";
import { type ReadRemembered, rememberedFrom } from "./rememberedMemories.js";

/**
 * How long a start hook waits for a store another process holds locked. Readers of a WAL store are
 * not blocked by writers, so only an exclusive lock (a repair, a foreign tool) or a recovery waits.
 */
export const BUSY_TIMEOUT_MS = 250;

/**
 * Reads remembered memories from the store at `databasePath` with a connection of its own, read-only
 * and closed again at once: the start hook's path, which must neither create, migrate nor wait on it.
 */
export function readOnlyRemembered(databasePath: string): ReadRemembered {
  return (request) => {
    const storage = Storage.openReadOnly(databasePath, { busyTimeoutMs: BUSY_TIMEOUT_MS });
    try {
      return rememberedFrom(storage, request);
    } finally {
      storage.close();
    }
  };
}
