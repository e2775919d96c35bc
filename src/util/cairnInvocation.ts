import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export interface Invocation {
  command: string;
  args: string[];
}

/**
 * How to run this very cairn again from another process (an agent's hook, an MCP client, a detached
 * background run): the running Node binary and the real path of the running CLI entry, so it works
 * without a global install and survives a changed PATH. A `.ts` entry (a source checkout run through
 * tsx) gets tsx's loader by absolute URL, because the agent's cwd will not have tsx installed.
 */
export function cairnInvocation(options: { home?: string; entry?: string; env?: NodeJS.ProcessEnv } = {}): Invocation {
  const entry = options.entry ?? cliEntry();
  const args = [...loaderArgs(entry), entry];
  if (options.home && resolve(options.home) !== defaultHome(options.env ?? process.env)) {
    args.push("--home", resolve(options.home));
  }
  return { command: process.execPath, args };
}

/** The running CLI script, symbolic links resolved (a global install runs through a bin link). */
export function cliEntry(): string {
  const script = process.argv[1];
  if (!script) throw new Error("cannot tell which script is running (process.argv[1] is empty)");
  try {
    return realpathSync(script);
  } catch {
    return resolve(script);
  }
}

function defaultHome(env: NodeJS.ProcessEnv): string {
  return join(env.HOME || homedir(), ".cairn");
}

function loaderArgs(entry: string): string[] {
  if (!entry.endsWith(".ts")) return [];
  try {
    return ["--import", import.meta.resolve("tsx")];
  } catch {
    return ["--import", "tsx"];
  }
}

/**
 * Why an entry cannot be what an agent's hooks point at for good, or undefined: npx runs packages from
 * its cache (`~/.npm/_npx/<hash>/`), which npm clears, after which every hook would run nothing.
 */
export function transientEntry(entry: string): string | undefined {
  return /[\\/]_npx[\\/]/.test(entry) ? `this cairn runs from npx's cache (${entry}), which npm clears` : undefined;
}

/** How a user types cairn in a hint: `npx cairn-memory` when this one runs from npx's cache (no `cairn` on PATH). */
export function cairnCommandWord(entry: string): string {
  return transientEntry(entry) ? "npx cairn-memory" : "cairn";
}

/** One POSIX shell word: left bare when it is made of safe characters, else single-quoted. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line for hook runners that execute through a shell (Claude Code hooks do). */
export function shellCommand(invocation: Invocation, extra: string[]): string {
  return [invocation.command, ...invocation.args, ...extra].map(shellWord).join(" ");
}
