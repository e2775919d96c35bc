import { guardItem, guardTurns } from "../redact/index.js";
import type { ReadRequest, ReadResult, SourceAdapter } from "../sources/adapter.js";

export interface SourceRead {
  result: ReadResult;
  /** How the file was read in the end: from the stored offset, or whole. */
  mode: "append" | "full";
  /**
   * Hash of the bytes before the resume offset, taken once the read is done (see `prepareWrite`), so
   * that the write turn does not open the file again; absent, the write takes it itself.
   */
  tailHash?: string | null;
}

/**
 * One file through its adapter. A resumed read that met rewritten history (a rollback, a rewind, a new
 * branch) is discarded and the whole file is read instead.
 */
export async function readSource(
  adapter: SourceAdapter,
  request: ReadRequest,
  options: { fullReadFallback?: boolean } = {},
): Promise<SourceRead> {
  if (request.resume) {
    const result = await adapter.read(request);
    if (!result.needsFullRead) return { result: redacted(result, "append"), mode: "append" };
    // The next window of a file too large for one read cannot fall back to a whole read: the caller
    // decides. (A result asking for a full read carries no sessions.)
    if (options.fullReadFallback === false) return { result, mode: "append" };
  }
  return { result: redacted(await adapter.read(wholeFile(request)), "full"), mode: "full" };
}

/** The request without its resume point: the whole file, within the same read window. */
function wholeFile(request: ReadRequest): ReadRequest {
  return request.window === undefined ? { file: request.file } : { file: request.file, window: request.window };
}

/**
 * Items are guarded (secrets redacted, `<private>` blocks removed) here, before they are hashed and
 * outside the import lanes' write turn; the items repository, which guards every item it writes,
 * then skips them, so each item is redacted once. (The agent's own transcript file is left as it is.)
 * A `<private>` block left open in a user's message continues into their next one; the user messages
 * of an appended read wait for the write turn, which knows whether the stored ones left a block open.
 */
function redacted(result: ReadResult, mode: SourceRead["mode"]): ReadResult {
  for (const parsed of result.sessions) {
    if (mode === "full") guardTurns(parsed.items);
    else for (const item of parsed.items) if (item.role !== "user") guardItem(item);
  }
  return result;
}
