import { chmodSync, existsSync, lstatSync, mkdirSync, rmdirSync, type Stats, unlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { z } from "zod";
import { errorMessage } from "../../util/errors.js";
import { type Invocation, withInvocation } from "../invocation.js";
import { main } from "../program.js";
import { residentHome } from "./askResident.js";
import {
  BUILD_ID,
  MAX_REQUEST_BYTES,
  RESIDENT_COMMANDS,
  type ResidentAnswer,
  type ResidentRequest,
  type ResidentVerdict,
} from "./protocol.js";
import { ResidentCairns } from "./residentCairns.js";
import { answering, socketOfHome } from "./socketOfHome.js";

/**
 * Variables the answering code reads from the process's own environment rather than the client's
 * (the home directory, the time zone, the proxy settings): a client whose values differ is declined.
 */
const PROCESS_WIDE_VARIABLES = [
  "HOME",
  "USERPROFILE",
  "TZ",
  "http_proxy",
  "HTTP_PROXY",
  "https_proxy",
  "HTTPS_PROXY",
  "no_proxy",
  "NO_PROXY",
];

export interface Activity {
  inFlight: number;
  lastAt: number;
}

/** How long a connection may take to send its request line. */
const REQUEST_TIMEOUT_MS = 5000;

const streamInfo = z.object({ isTTY: z.boolean(), columns: z.number().int().positive().optional() });
const residentRequest = z.object({
  build: z.string(),
  home: z.string(),
  args: z.array(z.string()),
  cwd: z.string(),
  env: z.record(z.string(), z.string()),
  stdout: streamInfo,
  stderr: streamInfo,
  deadline: z.number(),
  stop: z.literal(true).optional(),
}) satisfies z.ZodType<ResidentRequest>;

export interface ResidentOptions {
  /** The memory root answered for: absolute and resolved. */
  home: string;
  /** One line per lifecycle event; with CAIRN_DEBUG set, one per request too. */
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /**
   * Called when a client asks this process to end (a `stop` request): set for a resident cairn started
   * by itself (src/cli/resident/residentLifetime.ts); without it, as in `cairn serve`, such a request is declined.
   */
  onStop?: () => void;
}

export interface Resident {
  /** The socket (or pipe) listened on. */
  path: string;
  /** Command lines being answered now, and when (epoch ms) the last one ended or the process started. */
  activity(): Activity;
  /** Stops listening, removes the socket and closes the stores. */
  close(): Promise<void>;
}

/**
 * Listens on the memory root's socket and answers the read-only command lines of RESIDENT_COMMANDS
 * by running them through the CLI's own program (src/cli/program.ts) with the client's directory,
 * environment and arguments, over a store kept open. Undefined, with a logged reason, when the
 * socket cannot be had: another live process holds it, or its folder is not the user's own.
 */
export async function startResident(options: ResidentOptions): Promise<Resident | undefined> {
  const { home, log } = options;
  const env = options.env ?? process.env;
  const place = socketOfHome(home);
  const posix = process.platform !== "win32";
  if (posix) {
    const problem = preparePlace(place.path, place.privateDir, home);
    if (problem) {
      log(`resident: not answering command lines: ${problem}`);
      return undefined;
    }
    if (await answering(place.path)) {
      log(`resident: another cairn process answers on ${place.path}; this one does not`);
      return undefined;
    }
    // A socket file left by a process that crashed: nothing listens on it any more.
    removeSocket(place.path);
  }
  const cairns = new ResidentCairns(home);
  // Opened now, so that the first command line is answered as fast as the next.
  warmUp(cairns, env, log);
  const activity: Activity = { inFlight: 0, lastAt: Date.now() };
  const server = createServer((socket) =>
    serve(socket, { home, cairns, env, log, activity, ...(options.onStop ? { onStop: options.onStop } : {}) }),
  );
  await listenPrivately(server, place.path, posix);
  const socketId = posix ? inodeOf(place.path) : undefined;
  const removeOwnSocket = () => {
    // Only the socket this process made: a later process may have replaced it.
    if (socketId === undefined || inodeOf(place.path) !== socketId) return;
    removeSocket(place.path);
    if (place.privateDir) removeEmptyFolder(place.privateDir);
  };
  process.on("exit", removeOwnSocket);
  log(`resident: answering ${[...RESIDENT_COMMANDS].join(" and ")} on ${place.path}`);
  let closing: Promise<void> | undefined;
  return {
    path: place.path,
    activity: () => ({ ...activity }),
    close: () => {
      closing ??= new Promise<void>((done) => {
        server.close(() => done());
        removeOwnSocket();
        process.off("exit", removeOwnSocket);
      }).then(() => cairns.close());
      return closing;
    },
  };
}

/** Creates the private folder when there is one; says what is wrong with the place, if anything. */
function preparePlace(path: string, privateDir: string | undefined, home: string): string | undefined {
  try {
    // Never made here: a resident started just before its memory root was removed must not make it again.
    if (!existsSync(home)) return `the memory root ${home} does not exist`;
    if (privateDir) {
      mkdirSync(privateDir, { recursive: true, mode: 0o700 });
      const stat = lstatSync(privateDir);
      const uid = process.getuid?.();
      if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0)
        return `${privateDir} is not a folder of this user's closed to others`;
    }
    const existing = lstatOrUndefined(path);
    if (existing && !existing.isSocket()) return `${path} exists and is not a socket`;
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

function warmUp(cairns: ResidentCairns, env: NodeJS.ProcessEnv, log: (line: string) => void): void {
  const lent = cairns.acquire(env);
  if (!("cairn" in lent)) {
    log(`resident: ${lent.declined}`);
    return;
  }
  try {
    void lent.cairn.memories;
  } catch (error) {
    log(`resident: the store does not open yet: ${errorMessage(error)}`);
  } finally {
    cairns.release(lent.cairn);
  }
}

/** Listens with the socket created readable and writable by the user only (no moment with wider rights). */
async function listenPrivately(server: Server, path: string, posix: boolean): Promise<void> {
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    const umask = posix ? process.umask(0o177) : undefined;
    try {
      server.listen(path, () => {
        server.off("error", fail);
        done();
      });
    } finally {
      if (umask !== undefined) process.umask(umask);
    }
  });
  if (posix) chmodSync(path, 0o600);
}

interface Served {
  home: string;
  cairns: ResidentCairns;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  activity: Activity;
  onStop?: () => void;
  /** Set by a stop request: the stores are closed and no command line is taken any more. */
  stopping?: boolean;
}

/** One connection: one request line in, a verdict line and an answer line out. Never throws. */
function serve(socket: Socket, served: Served): void {
  let buffered = "";
  let taken = false;
  socket.setEncoding("utf8");
  socket.on("error", () => socket.destroy());
  // A client that connects and sends no request line would hold the connection (and a stop) forever.
  socket.setTimeout(REQUEST_TIMEOUT_MS, () => {
    if (!taken) socket.destroy();
  });
  socket.on("data", (chunk: string) => {
    if (taken) return;
    buffered += chunk;
    const end = buffered.indexOf("\n");
    if (end < 0) {
      if (Buffer.byteLength(buffered) > MAX_REQUEST_BYTES) refuse(socket, `request over ${MAX_REQUEST_BYTES} bytes`);
      return;
    }
    taken = true;
    if (Buffer.byteLength(buffered.slice(0, end)) > MAX_REQUEST_BYTES)
      return refuse(socket, `request over ${MAX_REQUEST_BYTES} bytes`);
    served.activity.inFlight += 1;
    answer(socket, buffered.slice(0, end), served)
      .catch((error: unknown) => {
        served.log(`resident: ${errorMessage(error)}`);
        socket.destroy();
      })
      .finally(() => {
        served.activity.inFlight -= 1;
        served.activity.lastAt = Date.now();
      });
  });
}

function refuse(socket: Socket, reason: string): void {
  const verdict: ResidentVerdict = { build: BUILD_ID, declined: reason };
  socket.end(`${JSON.stringify(verdict)}\n`);
}

async function answer(socket: Socket, line: string, served: Served): Promise<void> {
  let request: ResidentRequest;
  try {
    request = residentRequest.parse(JSON.parse(line));
  } catch {
    return refuse(socket, "malformed request");
  }
  if (request.stop) return stopOnRequest(socket, request, served);
  if (served.stopping) return refuse(socket, "this process is ending");
  const declined = precheck(request, served);
  if (declined) {
    debug(served, `declined: ${declined}`);
    return refuse(socket, declined);
  }
  const lent = served.cairns.acquire(request.env);
  if (!("cairn" in lent)) return refuse(socket, lent.declined);
  served.cairns.release(lent.cairn);
  socket.write(`${JSON.stringify({ build: BUILD_ID, accepted: true } satisfies ResidentVerdict)}\n`);
  const started = performance.now();
  const result = await runCommandLine(request, served);
  debug(
    served,
    `${result.declined ? `declined: ${result.declined}` : `answered with exit code ${result.exitCode}`} in ${Math.round(performance.now() - started)} ms`,
  );
  socket.end(`${JSON.stringify(result)}\n`);
}

/** A client asked this process to end: answered first, then ended, when it is one that may be. */
function stopOnRequest(socket: Socket, request: ResidentRequest, served: Served): void {
  // Any build may ask: a process that only ever speeds commands up is given up without loss.
  if (request.home !== served.home) {
    refuse(socket, "another memory root");
    return;
  }
  if (!served.onStop) {
    refuse(socket, "a 'cairn serve' daemon ends with its own signal (Ctrl-C, SIGTERM)");
    return;
  }
  // Closed before the socket goes (server.close() removes it at once): a caller that waits for the
  // socket to go, to open the store exclusively, then finds it closed. A command still running closes
  // its store when it ends.
  served.stopping = true;
  served.cairns.close();
  const done: ResidentAnswer = { exitCode: 0, stdout: "", stderr: "" };
  socket.end(
    `${JSON.stringify({ build: BUILD_ID, accepted: true } satisfies ResidentVerdict)}\n${JSON.stringify(done)}\n`,
  );
  served.onStop();
}

/** Why this process cannot answer the request byte for byte as the client would, if it cannot. */
function precheck(request: ResidentRequest, served: Served): string | undefined {
  if (request.build !== BUILD_ID) return `another build of cairn (${request.build}, this is ${BUILD_ID})`;
  if (Date.now() > request.deadline) return "the client stopped waiting";
  const differs = PROCESS_WIDE_VARIABLES.find((name) => (request.env[name] ?? "") !== (served.env[name] ?? ""));
  if (differs) return `${differs} differs from this process's`;
  // The client's own test, repeated: a command line it should not have sent, or another root's.
  const home = residentHome({ args: request.args, env: request.env });
  if (home === undefined) return "not a command line a resident process answers";
  if (home !== request.home || home !== served.home) return "another memory root";
  return undefined;
}

/** Runs the command line through the CLI's program with the client's directory, environment and output. */
async function runCommandLine(request: ResidentRequest, served: Served): Promise<ResidentAnswer> {
  let stdout = "";
  let stderr = "";
  let declined: string | undefined;
  const context: Invocation = {
    cwd: request.cwd,
    env: request.env,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    resident: {
      home: served.home,
      decline: (reason) => {
        declined = reason;
        throw new Error(reason);
      },
      acquire: () => {
        const got = served.cairns.acquire(request.env);
        if (!("cairn" in got)) return context.resident!.decline(got.declined);
        return got.cairn;
      },
      release: (cairn) => served.cairns.release(cairn),
    },
  };
  const exitCode = await withInvocation(context, () => main(["node", "cairn", ...request.args]));
  return declined ? { declined } : { exitCode, stdout, stderr };
}

function debug(served: Served, line: string): void {
  if (served.env.CAIRN_DEBUG) served.log(`resident: ${line}`);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function inodeOf(path: string): number | undefined {
  return lstatOrUndefined(path)?.ino;
}

function removeSocket(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function removeEmptyFolder(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Already gone, or holding something else: left alone.
  }
}
