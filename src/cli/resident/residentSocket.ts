import { createRequire } from "node:module";
import { join } from "node:path";

// node:crypto costs ~6 ms to load, a tenth of what the CLI's fast path adds to node's start; only a
// memory root whose socket path is too long (or Windows) needs the hash, so it is loaded there.
const load = createRequire(import.meta.url);

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

/**
 * Where the resident process of memory root `home` listens (an absolute, resolved path). Inside the
 * root, which is the user's alone; when that path is too long for a unix socket, in a folder of
 * the temp dir named for the user and a hash of the root; on Windows, a named pipe named the same way.
 */
export function residentSocket(
  home: string,
  system: { platform: NodeJS.Platform; tmpdir: () => string; uid: number | undefined },
): SocketPlace {
  if (system.platform === "win32") return { path: `\\\\.\\pipe\\cairn-${homeHash(home.toLowerCase())}` };
  const inside = join(home, SOCKET_NAME);
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH_BYTES) return { path: inside };
  const privateDir = join(system.tmpdir(), `cairn-${system.uid ?? "user"}-${homeHash(home)}`);
  return { path: join(privateDir, SOCKET_NAME), privateDir };
}

function homeHash(home: string): string {
  const { createHash } = load("node:crypto") as typeof import("node:crypto");
  return createHash("sha256").update(home).digest("hex").slice(0, 16);
}
