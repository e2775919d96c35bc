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
