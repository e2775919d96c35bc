import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { Cairn } from "../../cairn.js";
import { envOverrides } from "../../config/envOverrides.js";
import { loadConfig } from "../../config/load.js";
import { cairnPaths, STORE_FILES } from "../../config/paths.js";
import { errorMessage } from "../../util/errors.js";

interface Entry {
  key: string;
  /** Undefined when this config cannot be answered for: the reason is in `declined`. */
  cairn?: Cairn;
  declined?: string;
  inUse: number;
  retired: boolean;
}

/** How many configurations (file versions, environment overrides) stay open at once. */
const KEPT = 2;

/**
 * The Cairns a resident process answers with, one per configuration a client would load: the same
 * config file (by its fingerprint) and the same overriding environment variables. A changed file
 * opens a new one, so an answer never comes from a configuration the client would not have read.
 * A configuration that warns or fails to load is declined: the client prints that itself.
 */
export class ResidentCairns {
  private readonly entries: Entry[] = [];
  /** Replaced while a command still used them: closed when it ends. */
  private readonly retiredInUse: Entry[] = [];

  constructor(readonly home: string) {}

  /** The Cairn for a client with environment `env`, or the reason none can answer for it. */
  acquire(env: NodeJS.ProcessEnv): { cairn: Cairn } | { declined: string } {
    // Opening would make the store (and the memory root) again: one removed under this process stays removed.
    if (!existsSync(cairnPaths(this.home).database)) return { declined: "no store in the memory root" };
    // The CLI would tighten them and say so on its stderr (tightenHomePermissions): let it.
    if (loosePermissions(this.home)) return { declined: "the memory root's permissions are to be tightened" };
    const key = configKey(this.home, env);
    let entry = this.entries.find((e) => e.key === key);
    if (!entry) {
      entry = { key, inUse: 0, retired: false, ...open(this.home, env) };
      this.entries.unshift(entry);
      for (const old of this.entries.splice(KEPT)) this.retire(old);
    }
    if (!entry.cairn) return { declined: entry.declined ?? "the configuration does not load" };
    // Reopened only between commands: a store swapped by `cairn doctor --repair` is not closed under one.
    if (entry.inUse === 0) entry.cairn.reopenIfReplaced();
    entry.inUse += 1;
    return { cairn: entry.cairn };
  }

  release(cairn: Cairn): void {
    const entry = this.entries.find((e) => e.cairn === cairn) ?? this.retiredInUse.find((e) => e.cairn === cairn);
    if (!entry) return;
    entry.inUse -= 1;
    if (entry.retired && entry.inUse === 0) this.closeEntry(entry);
  }

  close(): void {
    for (const entry of this.entries.splice(0)) this.retire(entry);
  }

  /** Closed now, or when the last command using it ends. */
  private retire(entry: Entry): void {
    entry.retired = true;
    if (entry.inUse === 0) this.closeEntry(entry);
    else this.retiredInUse.push(entry);
  }

  private closeEntry(entry: Entry): void {
    const at = this.retiredInUse.indexOf(entry);
    if (at >= 0) this.retiredInUse.splice(at, 1);
    entry.cairn?.close();
  }
}

function open(home: string, env: NodeJS.ProcessEnv): { cairn?: Cairn; declined?: string } {
  const warnings: string[] = [];
  try {
    // Loaded once more to hear its warnings: the CLI prints them on every command.
    loadConfig({ file: cairnPaths(home).config, env, warn: (line) => warnings.push(line) });
    if (warnings.length > 0) return { declined: `the configuration warns: ${warnings[0]}` };
    return { cairn: new Cairn({ home, env }) };
  } catch (error) {
    return { declined: `the configuration does not load: ${errorMessage(error)}` };
  }
}

/** The config file's fingerprint and every overriding variable's value: what the loaded config depends on. */
function configKey(home: string, env: NodeJS.ProcessEnv): string {
  let stamp = "missing";
  try {
    const stat = statSync(cairnPaths(home).config);
    stamp = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  } catch {
    // No file: the defaults, which is part of the key.
  }
  return [stamp, ...envOverrides.map(([name]) => `${name}=${env[name] ?? ""}`)].join("\n");
}

/** Whether the root or a store file of the user's is open to others (what the CLI tightens on open). */
function loosePermissions(home: string): boolean {
  const owner = process.getuid?.();
  if (owner === undefined) return false;
  const loose = (path: string, mode: number) => {
    try {
      const stat = statSync(path);
      return stat.uid === owner && (stat.mode & 0o777 & ~mode) !== 0;
    } catch {
      return false;
    }
  };
  return loose(home, 0o700) || STORE_FILES.some((name) => loose(join(home, name), 0o600));
}
