import { withWriteTx } from "../../store/tx.js";
import { isNewer } from "../../store/types/memoryRecord.js";
import type { MemoryStore } from "../memoryStore.js";
import type { MemoryRecord } from "../types.js";
import { BatchSubjects } from "./batchSubjects.js";
import { judgeSupersession } from "./judgeSupersession.js";
import { SUBJECT_LIMIT, supersessionCandidates, WordCounts } from "./supersessionCandidates.js";

/** The name supersession writes in the history's `who`. */
export const SUPERSESSION_WHO = "supersession";

/**
 * What a detector may do: `apply` supersedes; `review` only flags for a person (shadow mode, or
 * updates and deletes not allowed); the reviews of half-sure pairs are written in both.
 */
export type ReviseMode = "apply" | "review";

/** One memory replaced by a newer one of its scope. */
export interface Supersession {
  oldId: number;
  newId: number;
  /** The older memory's text, as the user knew it. */
  oldContent: string;
  reason: string;
}

/** A review flag a revise wrote: the older memory of a pair, the newer one, and why. */
export interface RaisedFlag {
  flag: number;
  memoryId: number;
  relatedId: number;
  reason: string;
}

export interface ReviseReport {
  superseded: Supersession[];
  /** Review rows written for pairs the detectors were not sure enough to apply, for a door to say which memories a person should look at. */
  flagged: RaisedFlag[];
}

/**
 * Same-subject supersession for memories just written (raw first: they are stored, then revised).
 * Each is compared with the live memories of its own scope that share an entity or words with it; of
 * each pair the newer (occurredAt, else creation, else id) replaces the older when a detector is sure,
 * and a half-sure pair becomes a review row. A memory that arrives after a newer one on the same
 * subject is the one superseded. Memories are taken oldest first, so a batch replays its history in
 * order whatever order it was given in. `commitWith` runs inside the batch's transaction, after it.
 */
export function reviseMemories(
  store: MemoryStore,
  ids: number[],
  options: { mode?: ReviseMode; counts?: WordCounts; commitWith?: () => void } = {},
): ReviseReport {
  const mode = options.mode ?? "apply";
  const { storage } = store;
  const counts = options.counts ?? new WordCounts(storage);
  // One write transaction for the batch: a supersession's writes (tombstone, vector, flags, history)
  // commit with the rest instead of one commit each, and no other writer can retire a memory while the
  // batch reads, so which memories are live is known here without asking the store for each pair.
  return withWriteTx(storage.db, () => {
    const report: ReviseReport = { superseded: [], flagged: [] };
    const memories = ids
      .map((id) => storage.memories.get(id))
      .filter((m): m is MemoryRecord => m !== undefined && m.deletedAt === null)
      .sort((a, b) => (isNewer(a, b) ? 1 : isNewer(b, a) ? -1 : 0));
    const retired = new Set<number>();
    const subjects = new BatchSubjects(storage, memories, retired, SUBJECT_LIMIT);
    // A pair meets twice when both were just written (each is the other's candidate); the second
    // reading would come to the same judgement on the same texts, and its flag is already open.
    const judged = new Set<string>();
    // Candidate rows read for this batch; one retired since is in `retired` and skipped below.
    const known = new Map<number, MemoryRecord>();
    for (const memory of memories) {
      if (retired.has(memory.id)) continue;
      const candidates = supersessionCandidates(storage, memory, counts, known, subjects).sort((a, b) =>
        isNewer(a, b) ? 1 : -1,
      );
      for (const candidate of candidates) {
        if (retired.has(memory.id)) break;
        if (retired.has(candidate.id)) continue;
        const pair = memory.id < candidate.id ? `${memory.id}:${candidate.id}` : `${candidate.id}:${memory.id}`;
        if (judged.has(pair)) continue;
        judged.add(pair);
        const [newer, older] = isNewer(memory, candidate) ? [memory, candidate] : [candidate, memory];
        const judgement = judgeSupersession(newer.content, older.content);
        if (!judgement) continue;
        // A person who brought a replaced memory back said it holds; a detector's reading of a later
        // memory does not overrule that, it asks them.
        const restored = judgement.verdict === "supersede" && wasRestored(store, older.id);
        if (judgement.verdict === "supersede" && mode === "apply" && !restored) {
          if (store.supersede(older.id, newer.id, { who: SUPERSESSION_WHO, reason: judgement.reason })) {
            retired.add(older.id);
            report.superseded.push({
              oldId: older.id,
              newId: newer.id,
              oldContent: older.content,
              reason: judgement.reason,
            });
          }
          continue;
        }
        const reason =
          judgement.verdict !== "supersede"
            ? judgement.reason
            : `would supersede: ${judgement.reason}${restored ? `; #${older.id} was restored by a person` : ""}`;
        const flag = flagOnce(store, { memoryId: older.id, relatedId: newer.id, reason });
        if (flag !== undefined) report.flagged.push({ flag, memoryId: older.id, relatedId: newer.id, reason });
      }
    }
    // The caller's writes that must stand or fall with the batch (its jobs marked done), in the same
    // transaction rather than one wrapped around it: an outer savepoint doubled what each supersession's
    // own savepoint cost.
    options.commitWith?.();
    return report;
  });
}

/** Whether a person restored the memory after it was forgotten or replaced (`cairn memory restore`). */
function wasRestored(store: MemoryStore, id: number): boolean {
  return store.historyOf(id).some((event) => event.event === "restored");
}

/**
 * Adds a review row unless the same pair is already waiting for a person; the new row's id, if any.
 * One indexed lookup of the pair: reading every open flag of the scope here made a batch of similar
 * memories cubic.
 */
function flagOnce(
  store: MemoryStore,
  flag: { memoryId: number; relatedId: number; reason: string },
): number | undefined {
  const { reviews } = store.storage;
  if (reviews.hasOpen(flag.memoryId, flag.relatedId)) return undefined;
  return reviews.add({ ...flag, detector: "syntactic", now: store.clock() });
}
