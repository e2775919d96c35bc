import { existsSync, lstatSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { sha256 } from "../util/hash.js";
import { commitConfig, modeOf, readOrNull, refuseReadOnly } from "./configFileWrite.js";
import { missingFolders, removeEmptyFolders } from "./createdFolders.js";
import { type FileRecord, type InstallState, readInstallState, writeInstallState } from "./installState.js";
import type { Connector, FileChange, InstallContext, ManagedEdit } from "./types.js";

export interface ApplyOptions {
  /** Where install records live (`<cairn home>/connectors/`). */
  stateDir: string;
  now?: () => Date;
}

/**
 * Installs a connector: each file is merged (never overwritten), backed up first as
 * `<file>.cairn-backup-<timestamp>`, and left alone when it already holds cairn's entries. What each
 * file held before cairn first changed it is recorded, so uninstall can give it back exactly.
 */
export function installConnector(connector: Connector, context: InstallContext, options: ApplyOptions): FileChange[] {
  const state = readInstallState(options.stateDir, connector.agent);
  const now = options.now?.() ?? new Date();
  // Every edit is computed before anything is written: a file cairn cannot merge, or one it must change
  // that the user made read-only, stops the install whole.
  const plans = connector.edits(context).map((edit) => {
    const current = readOrNull(edit.file);
    return { edit, current, next: edit.install(current) };
  });
  for (const plan of plans)
    if (plan.next !== plan.current) refuseReadOnly(plan.edit.file, `cairn install ${connector.agent}`);
  // Recorded before the write creates them, so even an install stopped halfway can be undone whole.
  const created = plans.flatMap((plan) => (plan.current === null ? missingFolders(plan.edit.file) : []));
  if (created.length > 0) state.folders = [...new Set([...(state.folders ?? []), ...created])];
  const changes: FileChange[] = [];
  try {
    for (const plan of plans) changes.push(installFile({ ...plan, state, now }));
  } finally {
    // Recorded even when a later file failed, so uninstall can still restore the earlier ones.
    state.installedAt ??= now.toISOString();
    writeInstallState(options.stateDir, connector.agent, state);
  }
  return changes;
}

function installFile(plan: {
  edit: ManagedEdit;
  current: string | null;
  next: string;
  state: InstallState;
  now: Date;
}): FileChange {
  const { edit, state } = plan;
  const base = { file: edit.file, what: edit.what };
  if (plan.next === plan.current) return { ...base, action: "unchanged" };
  let backup = plan.current === null ? undefined : backupFile(edit.file, plan.current, plan.now);
  const written = commitConfig({ file: edit.file, based: plan.current, next: plan.next, recompute: edit.install });
  const current = written.based;
  const next = written.next ?? "";
  // The agent wrote between cairn's read and its write: the restore point is what the edit was applied to.
  if (current !== plan.current) {
    if (current === null && backup) rmSync(backup, { force: true });
    if (current === null) backup = undefined;
    else if (backup) writeFileSync(backup, current, { mode: modeOf(edit.file) });
    else backup = backupFile(edit.file, current, plan.now);
  }
  if (next === current) return { ...base, action: "unchanged" };
  const previous = state.files[edit.file];
  // A file that still holds what cairn wrote keeps its original restore point; one the user changed
  // since gets a new one (restoring the older copy would undo the user's change).
  const keepOriginal = previous !== undefined && current !== null && sha256(current) === previous.written;
  state.files[edit.file] = keepOriginal
    ? { ...previous, written: sha256(next) }
    : { existed: current !== null, ...(backup ? { backup } : {}), written: sha256(next) };
  return { ...base, action: current === null ? "created" : "updated", ...(backup ? { backup } : {}) };
}

/**
 * Uninstalls a connector. A file unchanged since cairn wrote it gets its pre-install bytes back (or is
 * deleted when cairn created it); a file the user edited since loses cairn's entries and nothing else.
 */
export function uninstallConnector(connector: Connector, context: InstallContext, options: ApplyOptions): FileChange[] {
  const state = readInstallState(options.stateDir, connector.agent);
  const now = options.now?.() ?? new Date();
  const edits = connector.edits(context);
  // Only a file uninstall would change: a read-only one without cairn's entries is no obstacle.
  for (const edit of edits) {
    const current = readOrNull(edit.file);
    if (current !== null && edit.uninstall(current) !== current)
      refuseReadOnly(edit.file, `cairn uninstall ${connector.agent}`);
  }
  const changes = edits.map((edit) => uninstallFile(edit, state.files[edit.file], now));
  // Only folders the record says install created, and only when nothing is left in them.
  for (const folder of removeEmptyFolders(state.folders ?? []))
    changes.push({ file: folder, what: "folder cairn had created, empty now", action: "folder-removed" });
  writeInstallState(options.stateDir, connector.agent, undefined);
  return changes;
}

function uninstallFile(edit: ManagedEdit, record: FileRecord | undefined, now: Date): FileChange {
  const base = { file: edit.file, what: edit.what };
  const current = readOrNull(edit.file);
  if (current === null) return { ...base, action: "absent" };
  // A file the agent rewrites while cairn works falls back to removing cairn's entries from its new content.
  const removeEntries = (latest: string | null) => (latest === null ? null : edit.uninstall(latest));
  // Computed first in every case: it is also the fallback when the restore finds newer content.
  const next = edit.uninstall(current);
  if (record && sha256(current) === record.written) {
    // A file cairn created that the user has since linked into their dotfiles stays, emptied of cairn's entries.
    if (!record.existed && !isLink(edit.file)) {
      const done = commitConfig({ file: edit.file, based: current, next: null, recompute: removeEntries });
      if (done.next === null) return { ...base, action: "deleted" };
      return entriesRemoved(edit, done, now);
    }
    if (record.existed && record.backup && existsSync(record.backup)) {
      const restored = readFileSync(record.backup, "utf8");
      const done = commitConfig({ file: edit.file, based: current, next: restored, recompute: removeEntries });
      if (done.based === current) return { ...base, action: "restored", backup: record.backup };
      return entriesRemoved(edit, done, now);
    }
  }
  if (next === current) return { ...base, action: "unchanged" };
  const backup = backupFile(edit.file, current, now);
  const emptied = ((record && !record.existed) || edit.ownsFile) && edit.isEmpty(next) && !isLink(edit.file);
  const done = commitConfig({ file: edit.file, based: current, next: emptied ? null : next, recompute: removeEntries });
  if (done.based !== current && done.based !== null) writeFileSync(backup, done.based, { mode: modeOf(edit.file) });
  if (done.next === null) return { ...base, action: done.based === null ? "absent" : "deleted", backup };
  return { ...base, action: done.next === done.based ? "unchanged" : "removed-entries", backup };
}

/** The report of an uninstall that found the agent's newer content and took cairn's entries out of it. */
function entriesRemoved(edit: ManagedEdit, done: { based: string | null; next: string | null }, now: Date): FileChange {
  const base = { file: edit.file, what: edit.what };
  if (done.based === null) return { ...base, action: "absent" };
  if (done.next === done.based) return { ...base, action: "unchanged" };
  return { ...base, action: "removed-entries", backup: backupFile(edit.file, done.based, now) };
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * `<file>.cairn-backup-<UTC timestamp>` beside the path the user knows (not in a link's dotfiles
 * folder), holding exactly the content cairn read; never overwrites an earlier backup.
 */
function backupFile(file: string, content: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  let backup = `${file}.cairn-backup-${stamp}`;
  for (let n = 2; existsSync(backup); n += 1) backup = `${file}.cairn-backup-${stamp}-${n}`;
  writeFileSync(backup, content, { mode: modeOf(file), flag: "wx" });
  return backup;
}
