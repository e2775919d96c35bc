import { dropErasedBytes, type ErasedBytesReport } from "../store/dropErasedBytes.js";
import { PHASE1_KIND } from "../store/queue/jobKinds.js";
import type { Storage } from "../store/storage.js";
import { withWriteTx } from "../store/tx.js";
import { reviveMemory } from "./reviveMemory.js";
import { GLOBAL_SCOPE } from "./scopes.js";

export interface ExclusionErasure {
  /** Excluded sessions something had been learned from. */
  sessions: number;
  stage1Outputs: number;
  memories: number;
  /** Memories of other sessions that an erased one had replaced, current again. */
  restored: number;
  /** Workspaces the next phase 2 builds from nothing (their files may quote the sessions). */
  rebuild: string[];
  bytes: ErasedBytesReport;
}

const RESTORE_REASON =
  "the memory that replaced it was learned from a session memories.exclude now covers, and was erased";

/**
 * `memories.exclude` says cairn must not learn from a session; a session it covers after the fact loses
 * its items at the next scan, and here everything learned from it: its stage-1 output (so no workspace
 * is consolidated from it again; the next phase 2 rebuilds them all), its pending phase-1 job, and its
 * memories, erased as `cairn memory clear` erases (no tombstone keeps the text). Every workspace it can
 * stand in (global, its project's, any whose selection held it) is marked to be built from nothing,
 * since a consolidator shown the previous files would keep what they quote; and the erased text is
 * dropped from the store's file (dropErasedBytes). A memory of another
 * session that one of them had replaced comes back, as if cairn had never read the excluded session.
 * Stores of earlier versions, which kept all of this, are mended by the same pass.
 */
export function eraseExcludedSessions(storage: Storage, now: number): ExclusionErasure | undefined {
  const ids = storage.sessions.excludedWithLearning();
  if (ids.length === 0) return undefined;
  const erased = withWriteTx(storage.db, () => {
    const rebuild = [...new Set([GLOBAL_SCOPE, ...storage.stage1.workspacesOf(ids)])].sort();
    storage.phase2.requestRebuild(rebuild);
    // Their phase-2 selection stays: it is how the next phase 2 knows which workspaces to rebuild.
    const stage1Outputs = ids.filter((id) => storage.stage1.delete(id)).length;
    storage.jobs.remove(PHASE1_KIND, ids);
    const { erased, replaced } = storage.erase.sessions(ids);
    let restored = 0;
    for (const id of replaced) {
      const record = storage.memories.get(id);
      if (record && reviveMemory(storage, record, { reason: RESTORE_REASON, now })) restored += 1;
    }
    storage.phase2.requestForceNext();
    return { sessions: ids.length, stage1Outputs, memories: erased, restored, rebuild };
  });
  return { ...erased, bytes: dropErasedBytes(storage.db, { rewrite: true }) };
}
