import { existsSync } from "node:fs";
import type { RememberedOption } from "./inject.js";
import type { ReadRemembered } from "./rememberedMemories.js";

/**
 * The reader of remembered memories for a process that has not opened the store: none when the store
 * does not exist (nothing was ever remembered), so SQLite's native module is loaded only when there is
 * something to read. A module that fails to load becomes a reader that fails, which injection reports.
 */
async function storeRememberedReader(databasePath: string): Promise<ReadRemembered | undefined> {
  if (!existsSync(databasePath)) return undefined;
  try {
    const { readOnlyRemembered } = await import("./readOnlyRemembered.js");
    return readOnlyRemembered(databasePath);
  } catch (error) {
    return () => {
      throw error;
    };
  }
}

/**
 * The remembered lists a start path asks injection for: none when `limit` is 0 (the store is then not
 * touched) or the store does not exist.
 */
export async function storeRemembered(databasePath: string, limit: number): Promise<RememberedOption | undefined> {
  const read = limit > 0 ? await storeRememberedReader(databasePath) : undefined;
  return read && { read, limit };
}
