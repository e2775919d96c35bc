/** The contract between the installer and each agent's connector. Imports only the agent registry's names. */
import type { ConnectorAgent } from "../agents/registry.js";

/** What to write into agents' configs to run this cairn (see cairnInvocation). */
export interface InstallContext {
  /** The node binary and the cairn CLI entry (plus `--home` when the memory root is not the default). */
  invocation: { command: string; args: string[] };
  env: NodeJS.ProcessEnv;
}

/** One config file a connector changes, as two pure text transformations. */
export interface ManagedEdit {
  file: string;
  /** Short description of what cairn adds there, for the report ("SessionStart hook"). */
  what: string;
  /**
   * The content with cairn's entries in place; `current` is null when the file does not exist.
   * Must return `current` itself when it already holds exactly these entries (idempotence).
   */
  install(current: string | null): string;
  /** The content without cairn's entries (and nothing else changed); `current` when there are none. */
  uninstall(current: string): string;
  /**
   * The command lines (command, then arguments) of the entries install wrote in `content`, none when it
   * holds none: what `cairn doctor` checks still runs (the node binary and the cairn script they name).
   */
  installedArgv(content: string): unknown[][];
  /** Whether content left after uninstall holds nothing at all (a file cairn created may then go). */
  isEmpty(content: string): boolean;
  /** The whole file is cairn's (pi's extension): emptied by uninstall, it goes even without an install record. */
  ownsFile?: boolean;
}

export interface Connector {
  agent: ConnectorAgent;
  edits(context: InstallContext): ManagedEdit[];
}

export type FileAction =
  | "created"
  | "updated"
  | "unchanged"
  | "restored"
  | "removed-entries"
  | "deleted"
  | "absent"
  /** A folder install had created, empty after uninstall (`file` is the folder). */
  | "folder-removed";

export interface FileChange {
  file: string;
  what: string;
  action: FileAction;
  /** The copy of the file taken before it was changed. */
  backup?: string;
}
