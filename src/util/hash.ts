import * as crypto from "node:crypto";

/**
 * Node's one-shot hash (20.12 and later) skips the Hash object that createHash builds: hashing item
 * keys and session contents during an import got several times cheaper. Older Node 20 falls back.
 */
const oneShot = (crypto as unknown as { hash?: (algorithm: string, data: string | Buffer) => string }).hash;

export function sha256(text: string | Buffer): string {
  return oneShot ? oneShot("sha256", text) : crypto.createHash("sha256").update(text).digest("hex");
}
