// The wire format between the CLI's first module and a resident process: one JSON line each way for
// the request and the verdict, then one JSON line with the answer. Node built-ins and types only:
// the client side runs before anything else of cairn is loaded.

/** Replaced by the bundler with a hash of the built CLI (scripts/bundle-cli.mjs). */
declare const CAIRN_BUILD_ID: string | undefined;

/**
 * Which build of cairn this is. A client and a resident process of different builds could parse the
 * same command line differently, so they talk only when the ids are equal. Unbundled code (tests,
 * tsx) says "source".
 */
export const BUILD_ID: string = typeof CAIRN_BUILD_ID === "string" ? CAIRN_BUILD_ID : "source";

/** The largest request a resident process reads; a larger one is refused and the connection closed. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * How long a client waits for the resident process to take its request before running the command
 * itself. Once the request is taken it waits for the answer as long as the command takes.
 */
export const ACCEPT_TIMEOUT_MS = 1000;

/** The commands a resident process may answer: read-only, with output it can reproduce byte for byte. */
export const RESIDENT_COMMANDS: ReadonlySet<string> = new Set(["recall", "inject"]);

export interface StreamInfo {
  isTTY: boolean;
  columns?: number;
}

export interface ResidentRequest {
  build: string;
  /** The memory root the client resolved (absolute): a process answers for its own only. */
  home: string;
  /** The command line after `cairn`, as typed. */
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdout: StreamInfo;
  stderr: StreamInfo;
  /** Epoch ms after which the client no longer waits: a request taken later is not run. */
  deadline: number;
  /**
   * Not a command line: end the process (one cairn started by itself, never `cairn serve`), so that
   * `cairn doctor --repair` can have the store to itself or `cairn serve` can take the socket.
   */
  stop?: true;
}

/** The first line back: the request is taken (the answer follows) or declined (the client runs it). */
export interface ResidentVerdict {
  build: string;
  accepted?: true;
  declined?: string;
}

/** The second line back: what the command line printed and its exit code, or a late decline. */
export interface ResidentAnswer {
  exitCode?: number;
  stdout?: string;
  stderr?: string;
  declined?: string;
}
