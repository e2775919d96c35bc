import { isNewer } from "../memory/lifecycle/judgeSupersession.js";
import type { MemoryRepo } from "../store/contracts/memories.js";
import type { MemoryRecord } from "../store/types/memoryRecord.js";

/** Which scopes a session's injection lists remembered memories of, and how many per group. */
export interface RememberedRequest {
  /** The project's scope keys: the cwd's identity key and, when it differs, its workspace's key. */
  project: string[];
  global: string[];
  limit: number;
}

export interface RememberedGroup {
  /** Newest first, at most the limit. */
  memories: MemoryRecord[];
  /** More live remembered memories exist than the limit lets through. */
  more: boolean;
}

export interface RememberedRead {
  project: RememberedGroup;
  global: RememberedGroup;
}

/** Reads the remembered memories of a request; throws when the store cannot be read. */
export type ReadRemembered = (request: RememberedRequest) => RememberedRead;

/**
 * The current remembered memories of each group of scopes: live (not superseded, not forgotten) and
 * not written by the fact pipeline, whose memories reach injection through the phase-2 summaries.
 */
export function rememberedFrom(
  memories: Pick<MemoryRepo, "newestRemembered">,
  request: RememberedRequest,
): RememberedRead {
  const group = (scopes: string[]): RememberedGroup => {
    const found = [...new Set(scopes)].flatMap((scope) => memories.newestRemembered(scope, request.limit + 1));
    found.sort((a, b) => (isNewer(a, b) ? -1 : 1));
    return { memories: found.slice(0, request.limit), more: found.length > request.limit };
  };
  return { project: group(request.project), global: group(request.global) };
}

/** When the memory was said, else when it was stored: the order remembered memories are listed in. */
export function saidAt(memory: Pick<MemoryRecord, "occurredAt" | "createdAt">): number {
  return memory.occurredAt ?? memory.createdAt;
}
