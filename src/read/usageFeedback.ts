import { type AspectWeighting, STRUCTURAL_META } from "../store/contracts/aspects.js";
import type { Storage } from "../store/storage.js";
import { withWriteTx } from "../store/tx.js";
import { summaryFileName } from "../workspace/summaryFileName.js";
import { parseCitations } from "./citations.js";

const CURSOR_KEY = "citations.lastItemId";

/**
 * Turns citations in newly imported assistant messages into usage of the cited stage-1 outputs, so
 * phase 2 ranks memory that agents actually used higher, and of the cited remembered memories (the
 * same count a recall hit raises). A cursor over item ids makes each message count once, however often
 * its file is re-read.
 */
export function applyCitationUsage(storage: Storage, now: number): { messages: number; outputs: number } {
  const after = storage.meta.get<number>(CURSOR_KEY) ?? 0;
  const last = storage.items.lastId();
  const items = storage.items.assistantItemsContaining("<memory-citations>", after);
  let outputs = 0;
  withWriteTx(storage.db, () => {
    if (items.length > 0) {
      const byFile = new Map(storage.stage1.all().map((output) => [summaryFileName(output), output.sessionId]));
      for (const item of items) {
        const citations = parseCitations(item.text);
        const ids = new Set(citations.sessionIds);
        for (const file of citations.summaryFiles) {
          const id = byFile.get(file);
          if (id) ids.add(id);
        }
        if (ids.size > 0) outputs += storage.stage1.recordUsage([...ids], item.ts ?? now);
        storage.memories.bumpUsage(citations.memoryIds, item.ts ?? now);
      }
    }
    if (last > after) storage.meta.set(CURSOR_KEY, last);
  });
  return { messages: items.length, outputs };
}

/**
 * A recall hit on a memory extracted from a session counts as use of that session's stage-1 output.
 * Best-effort: a read-only or full store still answers recalls (the memory store's own usage write
 * fails the same way and already adds a warning to the response).
 */
export function recordRecallUsage(options: {
  storage: Pick<Storage, "stage1">;
  memoryOf: (id: number) => { provenance: { sessionId?: string | undefined } } | undefined;
  ids: readonly number[];
  now: number;
}): void {
  const sessions = options.ids
    .map((id) => options.memoryOf(id)?.provenance.sessionId)
    .filter((id): id is string => typeof id === "string");
  try {
    if (sessions.length > 0) options.storage.stage1.recordUsage(sessions, options.now);
  } catch {
    // See above: the counters only rank consolidation input; the answer matters more.
  }
}

/**
 * Aspect feedback (seed 004): every recalled memory filed under an aspect confirms that aspect, whose
 * weight grows by `delta` per confirming memory within [minWeight, maxWeight]. Counted per recall
 * answer (cairn has no session end to wait for); best-effort like the usage counters.
 */
export function confirmRecalledAspects(options: {
  storage: Pick<Storage, "db" | "aspects" | "meta">;
  ids: readonly number[];
  weighting: AspectWeighting;
  now: number;
}): void {
  const { storage, ids, now } = options;
  if (ids.length === 0) return;
  try {
    // Read first: a recall of memories without aspects takes no write lock.
    const confirmations = storage.aspects.confirmationsOf(ids);
    if (confirmations.size === 0) return;
    withWriteTx(storage.db, () => {
      storage.aspects.confirm(confirmations, options.weighting, now);
      const total = [...confirmations.values()].reduce((sum, n) => sum + n, 0);
      storage.meta.set(STRUCTURAL_META.lastFeedback, { at: now, aspects: confirmations.size, confirmations: total });
    });
  } catch {
    // The weights only shape classification; the recall answer matters more.
  }
}
