import { nodeCrypto } from "./nodeCrypto.js";

/**
 * Node's one-shot hash skips the Hash object that createHash builds: hashing item keys and session
 * contents during an import got several times cheaper.
 */
export function sha256(text: string | Buffer): string {
  return nodeCrypto().hash("sha256", text);
}
