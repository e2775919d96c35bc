import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../util/atomicWrite.js";

/** What one config file held before cairn first changed it, and what cairn last wrote there. */
export interface FileRecord {
  /** False when install created the file. */
  existed: boolean;
  /** The copy of the pre-install content. */
  backup?: string;
  /** sha256 of the content cairn wrote: equal at uninstall time means the user has not touched it since. */
  written: string;
}

export interface InstallState {
  version: 1;
  installedAt?: string;
  files: Record<string, FileRecord>;
  /** Folders install created for these files (an agent's folder made only for cairn), removed at uninstall when empty. */
  folders?: string[];
}

function statePath(dir: string, agent: string): string {
  return join(dir, `${agent}.json`);
}

/** The install record of one agent; an empty one when there is none (or it is unreadable). */
export function readInstallState(dir: string, agent: string): InstallState {
  try {
    const state = JSON.parse(readFileSync(statePath(dir, agent), "utf8")) as InstallState;
    if (state.version === 1 && state.files && typeof state.files === "object") return state;
  } catch {
    // No record: uninstall falls back to removing cairn's entries only, which is always safe.
  }
  return { version: 1, files: {} };
}

/** Writes the record, or deletes it when `state` is undefined (after uninstall). */
export function writeInstallState(dir: string, agent: string, state: InstallState | undefined): void {
  if (state === undefined) rmSync(statePath(dir, agent), { force: true });
  else writeFileAtomic(statePath(dir, agent), `${JSON.stringify(state, null, 2)}\n`);
}
