import { AGENT_WHO_PREFIX } from "../store/contracts/memories.js";
import type { Storage } from "../store/storage.js";
import type { MemoryRecord } from "../store/types/memoryRecord.js";

/**
 * Who stored a memory (its `who`). The CLI and the library store the user's own statements; an agent
 * in a session stores through MCP or HTTP, and what it stores is its note, not something the user said
 * or confirmed: a page or an issue the agent read may have talked it into the call.
 */
export const USER_AUTHOR = "user";
export const MCP_AGENT_AUTHOR = `${AGENT_WHO_PREFIX}mcp`;
export const HTTP_AGENT_AUTHOR = `${AGENT_WHO_PREFIX}http`;

/** Whether an agent stored the memory and the user has not confirmed it. */
export function isAgentWritten(who: string | null | undefined): boolean {
  return who?.startsWith(AGENT_WHO_PREFIX) ?? false;
}

/**
 * Makes a live memory an agent stored the user's own statement, with a `confirmed` event in its
 * history; false when it is no longer live. Call inside a write transaction.
 */
export function adoptAsUsers(
  storage: Pick<Storage, "memories" | "history">,
  record: Pick<MemoryRecord, "id" | "who">,
  options: { now: number; reason?: string },
): boolean {
  if (!storage.memories.setAuthor(record.id, USER_AUTHOR, options.now)) return false;
  storage.history.add({
    memoryId: record.id,
    event: "confirmed",
    who: USER_AUTHOR,
    reason: options.reason ?? null,
    metadata: { storedBy: record.who },
    now: options.now,
  });
  return true;
}
