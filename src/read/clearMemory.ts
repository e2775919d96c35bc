import { rmSync } from "node:fs";
import { GLOBAL_SCOPE } from "../memory/scopes.js";
import { dropErasedBytes, type ErasedBytesReport } from "../store/dropErasedBytes.js";
import { PHASE1_KIND, PHASE2_KEY, PHASE2_KIND } from "../store/queue/jobKinds.js";
import type { Storage } from "../store/storage.js";
import { withWriteTx } from "../store/tx.js";
import { workspaceForCwd } from "../workspace/projectIndex.js";
import { VersionedDir } from "../workspace/versionedDir.js";

export interface ClearReport {
  scope: "project" | "all";
  project: string | null;
  workspace: string | null;
  sessions: number;
  stage1Outputs: number;
  memories: number;
  bytes: ErasedBytesReport;
}

/**
 * `cairn memory clear`: deletes the memory of the current project (or of everything) and the rows it was
 * made from, so nothing is silently rebuilt from stale state. Collected sessions stay (they are the
 * user's history) but are marked processed; the next phase 2 builds the global workspace again from nothing
 * (its files quote the project), and the erased text is dropped from the store's file (dropErasedBytes).
 */
export function clearMemory(options: {
  storage: Storage;
  memoriesRoot: string;
  cwd: string;
  all: boolean;
}): ClearReport {
  const { storage } = options;
  const workspace = options.all ? undefined : workspaceForCwd(options.memoriesRoot, options.cwd);
  const sessionIds = storage.sessions.idsOfProject(workspace ? workspace.key : "*");
  const report = withWriteTx(storage.db, () => {
    const stage1Outputs = storage.stage1.deleteForSessions(sessionIds);
    storage.stage1.clearSelection(workspace ? workspace.key : "*");
    const memories = storage.erase.scopes(workspace ? [workspace.key] : "all");
    storage.jobs.remove(PHASE1_KIND, sessionIds);
    storage.sessions.markAllProcessed(sessionIds);
    const phase2 = storage.phase2;
    phase2.requestRebuild([GLOBAL_SCOPE]);
    if (workspace) phase2.requestForceNext();
    else {
      storage.jobs.remove(PHASE2_KIND, [PHASE2_KEY]);
      phase2.clearWatermark();
    }
    return { stage1Outputs, memories };
  });
  if (workspace) new VersionedDir(workspace.dir).remove();
  else rmSync(options.memoriesRoot, { recursive: true, force: true });
  return {
    scope: workspace ? "project" : "all",
    project: workspace?.key ?? null,
    workspace: workspace?.dir ?? null,
    sessions: sessionIds.length,
    ...report,
    bytes: dropErasedBytes(storage.db, { rewrite: true }),
  };
}
