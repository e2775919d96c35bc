import { parentPort } from "node:worker_threads";
import type { ReadRequest } from "./adapter.js";
import { readSource } from "./readSource.js";
import { adapters } from "./registry.js";
import type { AgentName } from "./types.js";

/**
 * Parses session files off the main thread during large scans, so that reading and parsing one file
 * overlaps with writing the previous one to SQLite. Messages: `{ id, agent, request }` in,
 * `{ id, read }` or `{ id, error }` out.
 */
parentPort?.on("message", async (message: { id: number; agent: AgentName; request: ReadRequest }) => {
  try {
    const adapter = adapters.find((candidate) => candidate.agent === message.agent);
    if (!adapter) throw new Error(`no adapter for ${message.agent}`);
    const read = await readSource(adapter, message.request);
    // Nearly every item's origin is the file itself: sending the path once per item would double the
    // cost of copying results between threads. The receiver puts it back (see sourceReader.ts).
    const path = message.request.file.path;
    for (const parsed of read.result.sessions)
      for (const item of parsed.items) if (item.origin.file === path) item.origin.file = "";
    parentPort?.postMessage({ id: message.id, read });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
