import { reviveMemory } from "../memory/reviveMemory.js";
import { GLOBAL_SCOPE } from "../memory/scopes.js";
import { dropErasedBytes, type ErasedBytesReport } from "../store/dropErasedBytes.js";
import { PURGED_MARK } from "../store/scrubText.js";
import type { Storage } from "../store/storage.js";
import { withWriteTx } from "../store/tx.js";
import { CairnError } from "../util/errors.js";
import { scrubWorkspaceText } from "../workspace/scrubWorkspaceText.js";
import { globalWorkspace, projectWorkspace } from "../workspace/workspacePaths.js";

/** Shorter texts would strike through ordinary words everywhere. */
export const MIN_PURGE_LENGTH = 4;

export type PurgeTarget = { id: number } | { text: string };

export interface PurgeReport {
  /** Memories erased, in any state. */
  memories: number;
  /** Other rows of the store in which the text was replaced by the purged mark. */
  rows: number;
  /** Older memories the erased ones had replaced, current again. */
  restored: number;
  /** Files under the memories root rewritten or removed. */
  files: string[];
  /** Workspaces the next phase 2 builds from nothing. */
  rebuild: string[];
  bytes: ErasedBytesReport;
}

const RESTORE_REASON = "the memory that replaced it was purged";

/**
 * `cairn memory purge`: removes a memory (by id, in any state, with its history) or a text, and every
 * trace of that text wherever cairn keeps it: memories holding it (superseded and forgotten ones too)
 * and their history, full-text and vector entries, hints, graph entities, stage-1 outputs, collected
 * session items, review flags, queue rows, and the files under the memories root (every version
 * folder). A purge by id purges the memory's text the same way. Workspaces that held it are built
 * again from nothing at the next phase 2, and the store's file is rewritten so no free page or log
 * frame keeps it. The agents' own transcript files are not cairn's to change.
 */
export function purgeMemory(options: {
  storage: Storage;
  memoriesRoot: string;
  target: PurgeTarget;
  now: number;
}): PurgeReport {
  const { storage, memoriesRoot, target } = options;
  const text = purgedText(storage, target);
  // Files first: a purge stopped after them leaves the store as it was, and running it again finishes.
  const scrub = text === null ? { files: [], workspaces: [] } : scrubWorkspaceText(memoriesRoot, text, PURGED_MARK);
  const known = new Set([GLOBAL_SCOPE, ...storage.stage1.selectionWorkspaces()]);
  const byDir = new Map([...known].map((key) => [workspaceDir(memoriesRoot, key), key]));
  const erased = withWriteTx(storage.db, () => {
    const one = "id" in target ? storage.erase.memory(target.id) : null;
    const projects = text === null ? [] : storage.stage1.projectsMentioning(text);
    const traces = text === null ? { erased: 0, replaced: [], scopes: [], rewritten: 0 } : storage.erase.text(text);
    let restored = 0;
    for (const id of [...(one?.replaced ?? []), ...traces.replaced]) {
      const record = storage.memories.get(id);
      if (record && reviveMemory(storage, record, { reason: RESTORE_REASON, now: options.now })) restored += 1;
    }
    const memories = traces.erased + (one ? 1 : 0);
    // Global too whenever anything was found: it is built from every project's sessions.
    const found = memories + traces.rewritten + scrub.files.length > 0;
    const touched = scrub.workspaces.flatMap((dir) => byDir.get(dir) ?? []);
    const keys = new Set([...touched, ...(one ? [one.scope] : []), ...traces.scopes]);
    for (const key of projects) if (key !== null) keys.add(key);
    if (found) keys.add(GLOBAL_SCOPE);
    const rebuild = [...keys].filter((key) => known.has(key)).sort();
    if (rebuild.length > 0) {
      storage.phase2.requestRebuild(rebuild);
      storage.phase2.requestForceNext();
    }
    return { memories, rows: traces.rewritten, restored, rebuild };
  });
  return { ...erased, files: scrub.files, bytes: dropErasedBytes(storage.db, { rewrite: true }) };
}

/**
 * The text to purge everywhere: the one given, or the memory's content. A memory shorter than a
 * purgeable text is erased alone (null).
 */
function purgedText(storage: Storage, target: PurgeTarget): string | null {
  if ("id" in target) {
    const record = storage.memories.get(target.id);
    if (!record) {
      throw new CairnError(
        "memory_not_found",
        `no memory ${target.id}; 'cairn recall --include-superseded' shows ids; nothing was deleted`,
      );
    }
    return record.content.trim().length < MIN_PURGE_LENGTH ? null : record.content;
  }
  if (target.text.trim().length < MIN_PURGE_LENGTH) {
    throw new CairnError(
      "bad_input",
      `memory purge --text needs at least ${MIN_PURGE_LENGTH} characters (a shorter text would strike out ordinary words); nothing was deleted`,
    );
  }
  return target.text;
}

function workspaceDir(memoriesRoot: string, key: string): string {
  return key === GLOBAL_SCOPE ? globalWorkspace(memoriesRoot).dir : projectWorkspace(memoriesRoot, key).dir;
}
