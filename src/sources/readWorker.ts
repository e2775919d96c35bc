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
    parentPort?.postMessage({ id: message.id, read: await readSource(adapter, message.request) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
