import type { ReviewAction } from "../requests/reviewActions.js";
import type { ReviewFlag, ReviewResolution } from "../store/contracts/reviews.js";
import { withWriteTx } from "../store/tx.js";
import { isNewer } from "../store/types/memoryRecord.js";
import type { Clock } from "../util/clock.js";
import { CairnError } from "../util/errors.js";
import {
  editMemory,
  forgetMemory,
  type MemoryChange,
  memoryState,
  refuseIfNotLive,
  requireMemory,
} from "./curateMemory.js";
import type { MemoryStore } from "./memoryStore.js";
import type { MemoryRecord } from "./types.js";

/** One side of a flagged conflict as a person reads it. */
export interface ReviewSide {
  id: number;
  content: string;
  type: string;
  scope: string;
  createdAt: number;
  /** "live", "forgotten" or "replaced by #40". */
  state: string;
}

/** An open flag with both sides' text and dates: what `cairn memory review` shows. */
export interface ReviewEntry {
  flag: number;
  reason: string;
  detector: string;
  createdAt: number;
  /** The flagged memory; null when its row is gone (the memory was cleared). */
  memory: ReviewSide | null;
  /** The memory it conflicts with, when one was written. */
  related: ReviewSide | null;
  /**
   * Whether the related memory is the newer or the older statement of the two (when said, else when
   * stored): sessions' facts are stored in the order their extraction finishes, not the order they were
   * said, so the memory that arrived second may state the older fact.
   */
  relatedIs: "newer" | "older" | null;
  /** The fact proposed in its place, when no memory holds it. */
  proposedContent: string | null;
}

/** Open flags about memories in `scopes` (every scope for "all"), oldest first. */
export function openReviews(store: MemoryStore, scopes: string[] | "all"): ReviewEntry[] {
  const flags = store.storage.reviews.open(scopes === "all" ? {} : { scopes });
  return flags.map((flag) => {
    const memory = store.get(flag.memoryId);
    const related = flag.relatedId === null ? undefined : store.get(flag.relatedId);
    return {
      flag: flag.id,
      reason: flag.reason,
      detector: flag.detector,
      createdAt: flag.createdAt,
      memory: side(memory),
      related: flag.relatedId === null ? null : side(related),
      relatedIs: related === undefined ? null : memory !== undefined && isNewer(memory, related) ? "older" : "newer",
      proposedContent: flag.proposedContent,
    };
  });
}

const RESOLUTION: Record<ReviewAction, ReviewResolution> = {
  keep: "kept",
  supersede: "superseded",
  forget: "forgotten",
};

/**
 * A person's decision on an open flag. keep: nothing changes. supersede: the related memory replaces
 * the flagged one, or, when the flag only carries a proposed fact, that fact is stored (like any
 * remember) and replaces it. forget: the flagged memory is tombstoned. The flag is then resolved.
 */
export async function resolveReview(
  store: MemoryStore,
  request: { flag: number; action: ReviewAction; clock: Clock },
): Promise<MemoryChange> {
  const flag = store.storage.reviews.get(request.flag);
  if (!flag) throw new CairnError("review_not_found", `no review flag #${request.flag}; nothing was changed`);
  if (flag.resolvedAt !== null) {
    throw new CairnError(
      "memory_not_changed",
      `review flag #${flag.id} was already resolved (${flag.resolution}); nothing was changed`,
    );
  }
  const reason = `review flag #${flag.id}: ${flag.reason}`;
  const resolve = (change: MemoryChange): MemoryChange => {
    store.storage.reviews.resolve(flag.id, RESOLUTION[request.action], request.clock());
    return { ...change, flag: flag.id, message: `${change.message} (flag #${flag.id} resolved)` };
  };
  const db = store.storage.db;
  if (request.action === "keep") {
    return withWriteTx(db, () => resolve({ change: "kept", id: flag.memoryId, message: `kept #${flag.memoryId}` }));
  }
  const record = requireMemory(store, flag.memoryId);
  if (request.action === "forget") {
    if (record.deletedAt !== null) {
      const message = `#${record.id} was already ${memoryState(record)}`;
      return withWriteTx(db, () => resolve({ change: "forgot", id: record.id, message }));
    }
    return withWriteTx(db, () => resolve(forgetMemory(store, record.id, { reason })));
  }
  return supersedeFlagged(store, { flag, record, reason, resolve });
}

async function supersedeFlagged(
  store: MemoryStore,
  at: { flag: ReviewFlag; record: MemoryRecord; reason: string; resolve: (change: MemoryChange) => MemoryChange },
): Promise<MemoryChange> {
  const { flag, record, reason, resolve } = at;
  const db = store.storage.db;
  if (flag.relatedId !== null) {
    const related = requireMemory(store, flag.relatedId);
    const replaced = { change: "replaced", id: record.id, replacedBy: related.id } as const;
    if (record.supersededBy === related.id)
      return withWriteTx(db, () =>
        resolve({ ...replaced, message: `#${record.id} was already replaced by #${related.id}` }),
      );
    refuseIfNotLive(record, "supersede");
    if (related.deletedAt !== null) {
      throw new CairnError(
        "memory_not_changed",
        `#${related.id}, the memory meant to replace #${record.id}, is ${memoryState(related)}; restore it first, or keep or forget #${record.id}`,
      );
    }
    return withWriteTx(db, () => {
      if (!store.supersede(record.id, related.id, { who: "user", reason }))
        throw new CairnError("memory_not_changed", `memory #${record.id} changed meanwhile; nothing was changed`);
      return resolve({ ...replaced, message: `#${record.id} replaced by #${related.id}` });
    });
  }
  if (flag.proposedContent === null) {
    throw new CairnError(
      "memory_not_changed",
      `review flag #${flag.id} names nothing to replace #${record.id} with; keep or forget it`,
    );
  }
  const change = await editMemory(store, { id: record.id, content: flag.proposedContent, reason });
  return withWriteTx(db, () => resolve(change));
}

function side(record: MemoryRecord | undefined): ReviewSide | null {
  if (!record) return null;
  return {
    id: record.id,
    content: record.content,
    type: record.type,
    scope: record.scope,
    createdAt: record.createdAt,
    state: memoryState(record),
  };
}
