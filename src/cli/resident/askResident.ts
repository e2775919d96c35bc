import { fstatSync, lstatSync } from "node:fs";
import { connect } from "node:net";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import {
  ACCEPT_TIMEOUT_MS,
  BUILD_ID,
  RESIDENT_COMMANDS,
  type ResidentAnswer,
  type ResidentRequest,
  type ResidentVerdict,
  type StreamInfo,
} from "./protocol.js";
import { residentSocket, socketNamedByHash } from "./residentSocket.js";

// The CLI's fast path: before anything of cairn is loaded, a command line a resident process can
// answer is sent to it. Node built-ins only. Every doubt ends in `undefined`, and the caller then
// runs the command in its own process as if no resident process existed.

export interface Asked {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: StreamInfo;
  stderr: StreamInfo;
}

/**
 * What a command would see of this process's output stream `fd` (`process.stdout.isTTY` and
 * `columns`). A pipe, file or socket is never a terminal, which one fstat tells without creating
 * the stream (a socket and its stream machinery for a pipe); only a character device, a terminal
 * or /dev/null, is asked through the stream itself.
 */
export function streamInfo(fd: 1 | 2): StreamInfo {
  if (process.platform !== "win32") {
    try {
      if (!fstatSync(fd).isCharacterDevice()) return { isTTY: false };
    } catch {
      // A closed descriptor: the stream says what the command would see.
    }
  }
  const stream = fd === 1 ? process.stdout : process.stderr;
  return { isTTY: stream.isTTY === true, ...(stream.columns ? { columns: stream.columns } : {}) };
}

/** Tokens after which the command line is left to the CLI: help and version print from the program. */
const LEFT_TO_CLI = new Set(["-h", "--help", "-V", "--version", "--"]);

/**
 * The memory root of a command line a resident process may answer, or undefined. Conservative: one
 * `--home` at most, and an absolute one (the resident's paths are absolute, a relative one's are not);
 * only the commands in RESIDENT_COMMANDS; no help, version or `--`.
 */
export function residentHome(asked: Pick<Asked, "args" | "env">): string | undefined {
  const { args, env } = asked;
  if (env.CAIRN_RESIDENT === "off") return undefined;
  let home: string | undefined;
  let homes = 0;
  let command: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (LEFT_TO_CLI.has(arg)) return undefined;
    if (arg === "--home" || arg.startsWith("--home=")) {
      homes += 1;
      home = arg === "--home" ? args[++i] : arg.slice("--home=".length);
    } else if (command === undefined) {
      if (arg.startsWith("-")) return undefined;
      command = arg;
    }
  }
  if (command === undefined || !RESIDENT_COMMANDS.has(command) || homes > 1) return undefined;
  if (homes === 1) return home !== undefined && isAbsolute(home) ? resolve(home) : undefined;
  const fromEnv = env.CAIRN_HOME?.trim();
  return fromEnv ? resolve(fromEnv) : join(homedir(), ".cairn");
}

/**
 * Whether a socket is the user's own: owned by them and, for one in the temp dir, inside a folder that
 * is theirs and closed to others. Another user's socket could answer anything.
 */
function ownSocket(path: string, privateDir: string | undefined): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  try {
    if (privateDir) {
      const dir = lstatSync(privateDir);
      if (!dir.isDirectory() || dir.uid !== uid || (dir.mode & 0o077) !== 0) return false;
    }
    const socket = lstatSync(path);
    return socket.isSocket() && socket.uid === uid;
  } catch {
    return false;
  }
}

/** The resident process's answer to this command line, or undefined when the CLI must run it itself. */
export async function askResident(asked: Asked): Promise<ResidentAnswer | undefined> {
  const home = residentHome(asked);
  if (home === undefined) return undefined;
  const crypto = socketNamedByHash(home, process.platform) ? await import("node:crypto") : undefined;
  const place = residentSocket(home, {
    platform: process.platform,
    tmpdir,
    uid: process.getuid?.(),
    sha256: (text) => crypto!.createHash("sha256").update(text).digest("hex"),
  });
  if (process.platform !== "win32" && !ownSocket(place.path, place.privateDir)) return undefined;
  const request: ResidentRequest = {
    build: BUILD_ID,
    home,
    args: asked.args,
    cwd: asked.cwd,
    env: Object.fromEntries(
      Object.entries(asked.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    stdout: asked.stdout,
    stderr: asked.stderr,
    deadline: Date.now() + ACCEPT_TIMEOUT_MS,
  };
  return new Promise((done) => {
    const socket = connect(place.path);
    let settled = false;
    const finish = (answer: ResidentAnswer | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      done(answer);
    };
    // Until the request is taken; after that the command runs there and is waited for.
    const timer = setTimeout(() => finish(undefined), ACCEPT_TIMEOUT_MS);
    let buffered = "";
    let verdict: ResidentVerdict | undefined;
    socket.setEncoding("utf8");
    socket.on("error", () => finish(undefined));
    socket.on("close", () => finish(undefined));
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        let message: ResidentVerdict & ResidentAnswer;
        try {
          message = JSON.parse(line) as ResidentVerdict & ResidentAnswer;
        } catch {
          return finish(undefined);
        }
        if (!verdict) {
          if (message.build !== BUILD_ID || message.accepted !== true) return finish(undefined);
          verdict = message;
          clearTimeout(timer);
          continue;
        }
        const complete =
          typeof message.exitCode === "number" &&
          typeof message.stdout === "string" &&
          typeof message.stderr === "string";
        return finish(complete && message.declined === undefined ? message : undefined);
      }
    });
  });
}
