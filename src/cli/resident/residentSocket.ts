import { join } from "node:path";

/** The name of the socket inside the memory root. */
export const SOCKET_NAME = "cairn.sock";

/**
 * The longest unix socket path every platform accepts: `sun_path` holds 104 bytes on macOS and the
 * BSDs and 108 on Linux, the terminating NUL included.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

export interface SocketPlace {
  /** What to listen on and connect to. */
  path: string;
  /**
   * The private folder under the temp dir that holds it, when the memory root's path is too long;
   * it must be the user's own and closed to others before anyone listens or connects there.
   */
  privateDir?: string;
}

export interface SocketSystem {
  platform: NodeJS.Platform;
  tmpdir: () => string;
  uid: number | undefined;
  /**
   * The hex SHA-256 of a text. Passed in: node:crypto costs ~6 ms to load, a large part of what the
   * CLI's fast path adds to node's start, and only a root where `socketNamedByHash` holds needs it.
   */
  sha256: (text: string) => string;
}

/** Whether the socket of memory root `home` is named by a hash of the root (Windows, or a long path). */
export function socketNamedByHash(home: string, platform: NodeJS.Platform): boolean {
  return platform === "win32" || Buffer.byteLength(join(home, SOCKET_NAME)) > MAX_SOCKET_PATH_BYTES;
}

/**
 * Where the resident process of memory root `home` listens (an absolute, resolved path). Inside the
 * root, which is the user's alone; when that path is too long for a unix socket, in a folder of
 * the temp dir named for the user and a hash of the root; on Windows, a named pipe named the same way.
 */
export function residentSocket(home: string, system: SocketSystem): SocketPlace {
  const homeHash = (text: string) => system.sha256(text).slice(0, 16);
  if (system.platform === "win32") return { path: `\\\\.\\pipe\\cairn-${homeHash(home.toLowerCase())}` };
  if (!socketNamedByHash(home, system.platform)) return { path: join(home, SOCKET_NAME) };
  const privateDir = join(system.tmpdir(), `cairn-${system.uid ?? "user"}-${homeHash(home)}`);
  return { path: join(privateDir, SOCKET_NAME), privateDir };
}
