import { lstatSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { nodeCrypto } from "../../util/nodeCrypto.js";
import { residentSocket, type SocketPlace } from "./residentSocket.js";

/**
 * Where memory root `home`'s resident process listens, for this process's platform and user. The CLI's
 * fast path (askResident.ts) builds the same place with node built-ins only.
 */
export function socketOfHome(home: string): SocketPlace {
  return residentSocket(home, {
    platform: process.platform,
    tmpdir,
    uid: process.getuid?.(),
    sha256: (text) => nodeCrypto().createHash("sha256").update(text).digest("hex"),
  });
}

/** What is at a socket's path: nothing, a socket, or something else (a file or folder in the way). */
export function socketPathHolds(path: string): "nothing" | "socket" | "other" {
  try {
    return lstatSync(path).isSocket() ? "socket" : "other";
  } catch {
    return "nothing";
  }
}

/** How long a connection attempt may take before the socket counts as answering (it exists, and is busy). */
const CONNECT_TIMEOUT_MS = 500;

/** Whether a live process accepts connections on the socket at `path` (one left by a killed process does not). */
export function answering(path: string): Promise<boolean> {
  if (socketPathHolds(path) !== "socket") return Promise.resolve(false);
  return new Promise((done) => {
    const socket = connect(path);
    const finish = (answer: boolean) => {
      socket.destroy();
      done(answer);
    };
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => finish(true));
  });
}
