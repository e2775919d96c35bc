import type { Doubt } from "../memory/types.js";
import type { MemoryRepo } from "../store/contracts/memories.js";
import type { ReviewRepo } from "../store/contracts/reviews.js";
import { isNewer, type MemoryRecord } from "../store/types/memoryRecord.js";
import { addressesAgent } from "../text/addressesAgent.js";

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
  /**
   * Listed memories a review flag says a newer live memory may have replaced (a pair the detectors
   * were not sure of): memory id -> the newer memory's id and the flag's. Injection marks them, so an
   * agent does not take an old statement at its word next to its likely replacement.
   */
  doubted: ReadonlyMap<number, Doubt>;
  /**
   * Memories left out because their text is worded as instructions to an agent: remember refuses such
   * text now, but a store written before that may hold it. Injection says so in a warning.
   */
  withheld: number[];
}

/** Reads the remembered memories of a request; throws when the store cannot be read. */
export type ReadRemembered = (request: RememberedRequest) => RememberedRead;

/**
 * The current remembered memories of each group of scopes: live (not superseded, not forgotten) and
 * not written by the fact pipeline, whose memories reach injection through the phase-2 summaries;
 * global ones only when the user stored or confirmed them.
 */
export function rememberedFrom(
  storage: { memories: Pick<MemoryRepo, "newestRemembered">; reviews: Pick<ReviewRepo, "doubtsAbout"> },
  request: RememberedRequest,
): RememberedRead {
  const withheld: number[] = [];
  const group = (scopes: string[], options: { withoutAgents?: boolean } = {}): RememberedGroup => {
    const found = [...new Set(scopes)]
      .flatMap((scope) => storage.memories.newestRemembered(scope, request.limit + 1, options))
      .filter((memory) => {
        if (!addressesAgent(memory.content)) return true;
        withheld.push(memory.id);
        return false;
      });
    found.sort((a, b) => (isNewer(a, b) ? -1 : 1));
    return { memories: found.slice(0, request.limit), more: found.length > request.limit };
  };
  const project = group(request.project);
  // What an agent stored for every project waits for the user (`cairn memory confirm`): one call a
  // hostile page talked an agent into must not reach every later session of every project.
  const global = group(request.global, { withoutAgents: true });
  const listed = [...project.memories, ...global.memories].map((memory) => memory.id);
  return { project, global, doubted: storage.reviews.doubtsAbout(listed), withheld };
}

/** When the memory was said, else when it was stored: the order remembered memories are listed in. */
export function saidAt(memory: Pick<MemoryRecord, "occurredAt" | "createdAt">): number {
  return memory.occurredAt ?? memory.createdAt;
}
