import { AsyncLocalStorage } from "node:async_hooks";
import type { Cairn } from "../cairn.js";

/**
 * What one command line runs against: its directory, environment and output streams. A CLI process
 * has one, its own; a resident process (src/cli/resident/) runs a client's command line through the
 * same program with the client's, so the commands never read `process.cwd()`, `process.env` or
 * `process.stdout` themselves.
 */
export interface Invocation {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Set in a resident process: the store it keeps open for the client's memory root and config. */
  resident?: ResidentStore;
}

/** The open Cairn a resident process lends the command it runs for a client. */
export interface ResidentStore {
  /** The memory root it answers for; a command line naming another is declined. */
  home: string;
  /** Ends the command: the client runs it in its own process instead. */
  decline(reason: string): never;
  acquire(): Cairn;
  release(cairn: Cairn): void;
}

const current = new AsyncLocalStorage<Invocation>();

const ownProcess: Invocation = {
  get cwd() {
    return process.cwd();
  },
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** The invocation the running command belongs to; this process's own outside a resident answer. */
export function invocation(): Invocation {
  return current.getStore() ?? ownProcess;
}

/** Runs `fn` (a whole command line) with `context` as its invocation. */
export function withInvocation<T>(context: Invocation, fn: () => Promise<T>): Promise<T> {
  return current.run(context, fn);
}
