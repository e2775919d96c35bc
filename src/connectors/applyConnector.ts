import { copyFileSync, existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { writeFileAtomic } from "../util/atomicWrite.js";
import { sha256 } from "../util/hash.js";
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
  // Every edit is computed before anything is written: a file cairn cannot merge stops the install whole.
  const plans = connector.edits(context).map((edit) => {
    const current = readOrNull(edit.file);
    return { edit, current, next: edit.install(current) };
  });
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
  const { edit, current, next, state } = plan;
  const base = { file: edit.file, what: edit.what };
  if (next === current) return { ...base, action: "unchanged" };
  const backup = current === null ? undefined : backupFile(edit.file, plan.now);
  writeFileAtomic(edit.file, next, modeOf(edit.file));
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
  const changes = connector.edits(context).map((edit) => uninstallFile(edit, state.files[edit.file], now));
  writeInstallState(options.stateDir, connector.agent, undefined);
  return changes;
}

function uninstallFile(edit: ManagedEdit, record: FileRecord | undefined, now: Date): FileChange {
  const base = { file: edit.file, what: edit.what };
  const current = readOrNull(edit.file);
  if (current === null) return { ...base, action: "absent" };
  if (record && sha256(current) === record.written) {
    if (!record.existed) {
      rmSync(edit.file, { force: true });
      return { ...base, action: "deleted" };
    }
    if (record.backup && existsSync(record.backup)) {
      writeFileAtomic(edit.file, readFileSync(record.backup), modeOf(edit.file));
      return { ...base, action: "restored", backup: record.backup };
    }
  }
  const next = edit.uninstall(current);
  if (next === current) return { ...base, action: "unchanged" };
  const backup = backupFile(edit.file, now);
  if (record && !record.existed && edit.isEmpty(next)) {
    rmSync(edit.file, { force: true });
    return { ...base, action: "deleted", backup };
  }
  writeFileAtomic(edit.file, next, modeOf(edit.file));
  return { ...base, action: "removed-entries", backup };
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** `<file>.cairn-backup-<UTC timestamp>`, never overwriting an earlier backup. */
function backupFile(file: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  let backup = `${file}.cairn-backup-${stamp}`;
  for (let n = 2; existsSync(backup); n += 1) backup = `${file}.cairn-backup-${stamp}-${n}`;
  copyFileSync(file, backup);
  return backup;
}

/** The file's permission bits, so a private config stays private after the rewrite. */
function modeOf(file: string): number {
  try {
    return statSync(file).mode & 0o777;
  } catch {
    return 0o600;
  }
}
