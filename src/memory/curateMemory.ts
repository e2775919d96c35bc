import { type MemoryType, memoryTypes } from "../requests/memoryTypes.js";
import type { Storage } from "../store/storage.js";
import { withWriteTx } from "../store/tx.js";
import { DECISION_IMPORTANCE } from "../text/decisionLanguage.js";
import { CairnError } from "../util/errors.js";
import { adoptAsUsers, isAgentWritten } from "./memoryAuthor.js";
import type { MemoryStore } from "./memoryStore.js";
import { GLOBAL_SCOPE } from "./scopes.js";
import type { MemoryRecord } from "./types.js";

/** What a person's change did to one memory, with the line that says so ("forgot #12", "#12 replaced by #40"). */
export interface MemoryChange {
  change: "forgot" | "replaced" | "restored" | "kept" | "confirmed";
  /** The memory changed (for a review flag: the flagged one). */
  id: number;
  /** The memory that now holds the text, when replaced. */
  replacedBy?: number;
  /** The review flag this change resolved. */
  flag?: number;
  message: string;
  warnings?: string[];
}

export interface ChangeOptions {
  who?: string;
  reason?: string;
}

/**
 * The memory `id`, of any scope (ids are global), or a not-found error that changes nothing; for an id
 * whose row is gone for good (retention, purge, clear), the error says so and why restore cannot help.
 */
export function requireMemory(store: MemoryStore, id: number): MemoryRecord {
  const record = store.get(id);
  if (record) return record;
  if (store.storage.retention.wasRemoved(id)) {
    throw new CairnError(
      "memory_not_found",
      `memory #${id} was removed for good: a forgotten memory can be restored for workers.retention.tombstoneDays days (30 by default) and a replaced one for historyDays (180), then retention purges it; memory purge and memory clear remove at once. Nothing was changed`,
    );
  }
  throw new CairnError("memory_not_found", `no memory #${id}; nothing was changed`);
}

/** "live", "forgotten" or "replaced by #40". */
export function memoryState(record: MemoryRecord): string {
  if (record.deletedAt === null) return "live";
  return record.supersededBy === null ? "forgotten" : `replaced by #${record.supersededBy}`;
}

/** Tombstones one memory; its text stays in the history and `restore` brings it back. */
export function forgetMemory(store: MemoryStore, id: number, options: ChangeOptions = {}): MemoryChange {
  const record = requireMemory(store, id);
  if (!store.forget(id, withUser(options))) {
    const state = memoryState(record);
    throw new CairnError(
      "memory_not_changed",
      record.supersededBy === null
        ? `memory #${id} is already ${state} (restore brings it back)`
        : `memory #${id} was already ${state}; forget #${record.supersededBy} instead`,
    );
  }
  return { change: "forgot", id, message: `forgot #${id}` };
}

/**
 * Replaces one live memory by a new text and/or type, stored like any remember (guarded, in the old
 * memory's scope, keeping its importance and ref) and superseding it, so the old text stays in the history.
 */
export async function editMemory(
  store: MemoryStore,
  edit: { id: number; content?: string; type?: MemoryType } & ChangeOptions,
): Promise<MemoryChange> {
  const record = requireMemory(store, edit.id);
  refuseIfNotLive(record, "edit");
  const type = edit.type ?? (memoryTypes as readonly string[]).find((t) => t === record.type);
  const outcome = await store.replace(
    edit.id,
    {
      content: edit.content ?? record.content,
      ...(type ? { type: type as MemoryType } : {}),
      // A memory made a decision gets the protection decisions have, as remember gives it.
      importance: edit.type === "decision" ? Math.max(record.importance, DECISION_IMPORTANCE) : record.importance,
      confidence: record.confidence,
      ...(record.ref === null ? {} : { ref: record.ref }),
    },
    withUser(edit),
  );
  return replacementChange(edit.id, outcome);
}

/** The change a `MemoryStore.replace` made, or the error that says why nothing changed. */
export function replacementChange(id: number, outcome: Awaited<ReturnType<MemoryStore["replace"]>>): MemoryChange {
  if (outcome.status === "not_live")
    throw new CairnError("memory_not_changed", `memory #${id} changed meanwhile; nothing was changed`);
  if (outcome.status === "skipped") {
    throw new CairnError(
      "memory_not_changed",
      outcome.reason === "unchanged"
        ? `memory #${id} already says that; nothing was changed`
        : `the new text of #${id} has nothing left once <private> blocks and secrets are removed; nothing was changed (forget #${id} to drop it)`,
    );
  }
  const already = outcome.deduped ? ` (#${outcome.id} already said that)` : "";
  return {
    change: "replaced",
    id,
    replacedBy: outcome.id,
    message: `#${id} replaced by #${outcome.id}${already}`,
    ...(outcome.warnings ? { warnings: outcome.warnings } : {}),
  };
}

/** Brings back a forgotten or replaced memory; the memory that replaced it, if any, stays. */
export function restoreMemory(store: MemoryStore, id: number, options: ChangeOptions = {}): MemoryChange {
  const record = requireMemory(store, id);
  if (record.deletedAt === null)
    throw new CairnError("memory_not_changed", `memory #${id} is live; nothing to restore`);
  if (!store.restore(id, withUser(options))) {
    const twin = store.storage.memories.findLiveByHash(record.scope, record.contentHash);
    throw new CairnError(
      "memory_not_changed",
      twin === undefined
        ? `memory #${id} could not be restored; nothing was changed`
        : `memory #${id} cannot come back while #${twin} says the same in its scope (forget #${twin} first)`,
    );
  }
  const successor = record.supersededBy === null ? undefined : store.get(record.supersededBy);
  const stays =
    successor && successor.deletedAt === null
      ? `; #${successor.id}, which replaced it, stays (forget it to undo the edit)`
      : "";
  return { change: "restored", id, message: `restored #${id}${stays}` };
}

/**
 * The user confirms a memory an agent stored: it becomes the user's statement, listed as such at
 * session start, and a global one reaches every project's sessions from now on. Only the CLI and the
 * library offer it, never MCP or HTTP, so an agent cannot confirm its own memory.
 */
export function confirmMemory(store: MemoryStore, id: number, options: { reason?: string } = {}): MemoryChange {
  const record = requireMemory(store, id);
  refuseIfNotLive(record, "confirm");
  if (!isAgentWritten(record.who))
    throw new CairnError("memory_not_changed", `memory #${id} was not stored by an agent; nothing to confirm`);
  const now = store.clock();
  const confirmed = withWriteTx(store.storage.db, () =>
    adoptAsUsers(store.storage, record, { now, ...(options.reason === undefined ? {} : { reason: options.reason }) }),
  );
  if (!confirmed) throw new CairnError("memory_not_changed", `memory #${id} changed meanwhile; nothing was changed`);
  return { change: "confirmed", id, message: `confirmed #${id}: the user's own statement now` };
}

/**
 * The global memories an agent stored that wait for the user's confirmation, newest first, at most
 * `limit`. Read from the scope's remembered index (`scan` rows at most), so it stays cheap; it takes the
 * store, not the memory service, so `cairn status` can count them while the embedding provider is broken.
 */
export function awaitingConfirmation(storage: Pick<Storage, "memories">, limit: number, scan = 1000): MemoryRecord[] {
  return storage.memories
    .newestRemembered(GLOBAL_SCOPE, scan)
    .filter((memory) => isAgentWritten(memory.who))
    .slice(0, limit);
}

/** Changes made through these doors are the user's own, unless a caller says otherwise. */
function withUser(options: ChangeOptions): ChangeOptions {
  return { who: options.who ?? "user", ...(options.reason === undefined ? {} : { reason: options.reason }) };
}

export function refuseIfNotLive(record: MemoryRecord, verb: string): void {
  if (record.deletedAt === null) return;
  throw new CairnError(
    "memory_not_changed",
    record.supersededBy === null
      ? `memory #${record.id} is forgotten; restore it before you ${verb} it`
      : `memory #${record.id} was replaced by #${record.supersededBy}; ${verb} #${record.supersededBy} instead`,
  );
}
